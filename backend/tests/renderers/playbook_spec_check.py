"""Run with the pinned Ansible's Python (tests/ansible_env.py), not with the backend's:
validates every task of a playbook that calls a netapp.ontap or ansible.posix module against
that module's own argument spec.

    python playbook_spec_check.py PLAYBOOK FILLED_JSON
    python playbook_spec_check.py --spec FQCN      (the module's spec as JSON)

The spec is the one each module gives AnsibleModule (caught there, so nothing runs), with its
mutually_exclusive / required_if rules, checked by ansible-core's ArgumentSpecValidator. Task
arguments are templated as Ansible would (the play's vars, each loop item, module_defaults for
the collection's group), with FILLED_JSON standing in for the values the design leaves in angle
brackets and for the connection variables. Prints {"checked": N, "problems": [...]}.
"""

import contextlib
import importlib
import json
import sys
from typing import Any
from unittest import mock

from ansible.errors import AnsibleError  # type: ignore[import-untyped]
from ansible.module_utils.common.arg_spec import ArgumentSpecValidator  # type: ignore[import-untyped]
from ansible.parsing.dataloader import DataLoader  # type: ignore[import-untyped]
from ansible.template import Templar  # type: ignore[import-untyped]

OMIT = "__omit_place_holder__nasplan"


class _Caught(Exception):
    pass


COLLECTIONS = ("netapp.ontap.", "ansible.posix.")


def module_spec(fqcn: str) -> dict[str, Any]:
    """What the module gives AnsibleModule (argument_spec and its cross-argument rules), caught
    there so that nothing runs."""
    namespace, collection, name = fqcn.split(".")
    module = importlib.import_module(
        f"ansible_collections.{namespace}.{collection}.plugins.modules.{name}"
    )
    caught: dict[str, Any] = {}

    def fake(*_args: Any, **kwargs: Any) -> None:
        caught.update(kwargs)
        raise _Caught

    with mock.patch.object(module, "AnsibleModule", side_effect=fake), contextlib.suppress(_Caught):
        module.main()
    if "argument_spec" not in caught:
        raise RuntimeError(f"{fqcn} gave AnsibleModule no argument_spec")
    caught.pop("supports_check_mode", None)
    return caught


def fill(value: Any, filled: dict[str, Any], key: str = "") -> Any:
    """``value`` with the open values filled in: a placeholder by its text, a value recorded on
    the day (RECORDED_VALUE) by the option it stands for (``__recorded__``)."""
    if value == "RECORDED_VALUE" and key in filled.get("__recorded__", {}):
        return filled["__recorded__"][key]
    if isinstance(value, str) and value in filled:
        return filled[value]
    if isinstance(value, list):
        return [fill(v, filled, key) for v in value]
    if isinstance(value, dict):
        return {k: fill(v, filled, k) for k, v in value.items()}
    return value


def main(path: str, filled_json: str) -> None:
    filled = json.loads(filled_json)
    loader = DataLoader()
    plays = loader.load_from_file(path, trusted_as_template=True)
    problems: list[str] = []
    checked = 0
    specs: dict[str, Any] = {}
    for play in plays:
        variables = fill(dict(play.get("vars", {})), filled)
        variables.update(filled.get("__connection__", {}), omit=OMIT)
        defaults: dict[str, Any] = {}
        for group, arguments in play.get("module_defaults", {}).items():
            if group != "group/netapp.ontap.netapp_ontap":
                problems.append(f"module_defaults for an unknown group {group}")
            defaults.update(arguments)

        for task in play["tasks"]:
            if "register" in task:
                # What a task registers is there for the tasks after it, as when the play runs
                # (a command's output; the value stands in for any).
                variables[task["register"]] = {"stdout": "0", "stderr": "", "rc": 0}
            module = next((k for k in task if k.startswith(COLLECTIONS)), None)
            if module is None:
                continue
            if module not in specs:
                specs[module] = module_spec(module)
            caught = dict(specs[module])
            validator = ArgumentSpecValidator(caught.pop("argument_spec"), **caught)
            # No loop, no item: a task that reads one anyway fails to template, as it would run.
            looped = "loop" in task
            items = Templar(loader=loader, variables=variables).template(task.get("loop", [None]))
            for item in items:
                scope = {**variables, "item": item} if looped else variables
                templar = Templar(loader=loader, variables=scope)
                group_defaults = defaults if module.startswith("netapp.ontap.") else {}
                checked += 1
                try:
                    arguments = templar.template({**group_defaults, **task[module]})
                except AnsibleError as failed:
                    problems.append(f"{task['name']}: {failed.message}")
                    continue
                arguments = {k: v for k, v in arguments.items() if v != OMIT}
                for error in validator.validate(arguments).error_messages:
                    problems.append(f"{task['name']}: {error}")
    print(json.dumps({"checked": checked, "problems": problems}))


if __name__ == "__main__":
    if sys.argv[1] == "--spec":
        # python playbook_spec_check.py --spec FQCN: the module's caught spec as JSON.
        print(json.dumps(module_spec(sys.argv[2])))
    else:
        main(sys.argv[1], sys.argv[2])
