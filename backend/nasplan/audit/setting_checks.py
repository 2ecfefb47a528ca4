"""Setting checks: kernel, NFS and Oracle parameters, and the filer's settings, against the
values the plan sets with each mechanism."""

from __future__ import annotations

import re

from nasplan.audit.auditor import AuditorBase, is_default, norm_key
from nasplan.audit.ontap import OntapRecord
from nasplan.audit.parsers import Parameter
from nasplan.audit.values import same_value

# How a refused line is written, and why it sets nothing, by file kind.
_REFUSED_FORMS = {
    "ndd": (
        "{name}={value} in one argument",
        "it is not a form the command accepts, so it fails and {name} keeps its old value",
    ),
    "sysctl": (
        "{name}: {value}",
        "sysctl reads a setting only as name = value, so this line sets nothing and {name} "
        "keeps its value",
    ),
}


class SettingChecks(AuditorBase):
    def parameters(
        self,
        kind: str,
        params: list[Parameter],
        mechanism: str,
        form: str,
        excerpt: bool = False,
    ) -> None:
        """Planned settings of one mechanism against the values a file or output shows (in
        an ``excerpt``, a setting not shown is listed as not checked, not reported unset)."""
        found = {norm_key(p.name): p for p in params}
        for setting in self.plan.settings:
            if setting.mechanism != mechanism:
                continue
            present = found.get(norm_key(setting.key))
            rule = setting.rules[0]
            fix = form.format(key=setting.key, value=setting.value)
            needs = setting.requires.replace("_", " ")
            about = [norm_key(setting.key)]
            default = self.default_of(mechanism, setting.key)
            if setting.action == "unset":
                gives = self.unset_gives(rule, mechanism, setting.key, present, found)
                if present is not None and gives is not None:
                    self.add(
                        "info",
                        rule,
                        kind,
                        present.line,
                        f"{setting.key} = {present.value}: {gives}, what leaving it out gives "
                        f"on most platforms ({self.source_words(self.kb.rules[rule].sources[0])})"
                        "; the plan leaves it unset, and removing it changes nothing there.",
                        about=about,
                    )
                elif present is not None:
                    self.add(
                        self.severity(rule),
                        rule,
                        kind,
                        present.line,
                        f"{setting.key} is set to {present.value}; the plan leaves it unset.",
                        f"remove {setting.key}",
                        needs,
                        about=about,
                    )
            elif present is None and default is not None and is_default(default, setting.value):
                self.add(
                    "info",
                    rule,
                    kind,
                    None,
                    f"{setting.key} is not set, and need not be: {self.kb.os[self.os].label} "
                    f"defaults it to {default.value} ({self.source_words(default.source)}), "
                    "which is what the plan asks.",
                    about=about,
                )
            elif present is None and excerpt:
                self.unshown.append(
                    f"{setting.key} ({mechanism}): the pasted {kind} does not show it"
                )
            elif present is None:
                self.add(
                    self.severity(rule),
                    rule,
                    kind,
                    None,
                    f"{setting.key} is not set; the plan sets {setting.value}.",
                    fix,
                    needs,
                    about=about,
                )
            elif conceded := self.conceded(rule, mechanism, setting.key, present.value):
                self.add(
                    "info",
                    rule,
                    kind,
                    present.line,
                    f"{setting.key} = {present.value}: {conceded[0]} advises it, {conceded[1]}. "
                    f"The plan sets {setting.value}: {conceded[2]}. Sources disagree here, and "
                    "the knowledge base rates the difference as information.",
                    fix,
                    needs,
                    about=about,
                )
            elif self.above_minimum(
                setting.rules[0], mechanism, setting.key, present.value, setting.value
            ):
                self.add(
                    "info",
                    rule,
                    kind,
                    present.line,
                    f"{setting.key} = {present.value}: the plan's {setting.value} is a minimum "
                    f"({rule} gives it as one), and this is above it, so it stays.",
                    about=about,
                )
            elif not same_value(present.value, setting.value):
                self.add(
                    self.severity(rule),
                    rule,
                    kind,
                    present.line,
                    f"{setting.key} = {present.value}; the plan sets {setting.value}.",
                    fix,
                    needs,
                    about=about,
                )

    def ceilings(self, kind: str, params: list[Parameter], mechanism: str) -> None:
        """Settings set above their ceiling's value at that point of the paste (or above its
        default where the paste has not set it): the OS refuses them (knowledge/catalog
        os_defaults.yaml, ceilings)."""
        for ceiling in self.kb.os_ceilings:
            if ceiling.os != self.os or ceiling.mechanism != mechanism:
                continue
            current, where = ceiling.ceiling_default, None
            for param in sorted(params, key=lambda p: p.line):
                name = norm_key(param.name)
                if name == norm_key(ceiling.ceiling) and param.value.isdigit():
                    current, where = int(param.value), param.line
                    continue
                if name not in ceiling.keys or not param.value.isdigit():
                    continue
                if int(param.value) <= current:
                    continue
                limit = (
                    f"{ceiling.ceiling} ({current}, set on line {where})"
                    if where is not None
                    else f"{ceiling.ceiling} (its default, {current}, as nothing here sets it)"
                )
                self.add(
                    "warning",
                    ceiling.rule,
                    kind,
                    param.line,
                    f"{param.name}={param.value} is above {limit}: "
                    f"{self.kb.os[self.os].label} takes {param.name} only up to the current "
                    f"{ceiling.ceiling} ({self.source_words(ceiling.source)}), so this is "
                    f"refused and {param.name} keeps its value. Raise {ceiling.ceiling} first.",
                    None,
                    "online",
                    about=[name],
                )

    def unset_gives(
        self,
        rule_id: str,
        mechanism: str,
        key: str,
        present: Parameter | None,
        found: dict[str, Parameter],
    ) -> str | None:
        """Where ``rule_id`` leaves a count unset whose unset value it knows and ``present``
        writes out that same count: the reads it amounts to, in words."""
        gives = next(
            (
                s.unset_gives
                for s in self.kb.rules[rule_id].effects.settings
                if s.unset_gives and s.mechanism == mechanism and norm_key(s.key) == norm_key(key)
            ),
            None,
        )
        if gives is None or present is None or not present.value.isdigit():
            return None
        shown = found.get(norm_key(gives.unit_key))
        unit = int(shown.value) if shown and shown.value.isdigit() else gives.unit_default
        if int(present.value) * unit != gives.bytes:
            return None
        of_unit = f"{gives.unit_key} {unit}" + ("" if shown else ", its default")
        return f"{present.value} x {unit} ({of_unit}) = {gives.bytes} bytes"

    def above_minimum(
        self, rule_id: str, mechanism: str, key: str, present: str, planned: str
    ) -> bool:
        """Whether ``rule_id`` gives ``key`` as a minimum and ``present`` is a larger number."""
        at_least = any(
            s.at_least and s.mechanism == mechanism and norm_key(s.key) == norm_key(key)
            for s in self.kb.rules[rule_id].effects.settings
        )
        return at_least and present.isdigit() and planned.isdigit() and int(present) > int(planned)

    def conceded(
        self, rule: str, mechanism: str, key: str, value: str
    ) -> tuple[str, str, str] | None:
        """Where ``value`` is what the losing side of a disagreement ``rule`` wins advises
        (knowledge/conflicts.yaml) and the knowledge base rates it as information: the losing
        rule, its position and the winner's."""
        for conflict in self.kb.conflicts:
            if conflict.severity != "info" or rule not in conflict.winner.rules:
                continue
            for side in conflict.losers:
                for loser in side.rules:
                    advised = self.kb.rules[loser].effects.settings
                    if any(
                        s.mechanism == mechanism and s.key == key and same_value(value, s.value)
                        for s in advised
                    ):
                        return (
                            loser,
                            side.position.rstrip("."),
                            conflict.winner.position.rstrip("."),
                        )
        return None

    def same_words(self, mechanism: str, name: str) -> str | None:
        """A key some rule sets with ``mechanism`` that has the same words as ``name`` in
        another order (sunrpc.max_tcp_slot_table_entries for sunrpc.tcp_max_...), where
        ``name`` itself is no key of the knowledge base."""
        keys, by_words = self._keys_by_words(mechanism)
        if norm_key(name) in keys:
            return None
        return by_words.get(tuple(sorted(re.split(r"[._-]", norm_key(name)))))

    def _keys_by_words(self, mechanism: str) -> tuple[set[str], dict[tuple[str, ...], str]]:
        if mechanism not in self.keys_by_words:
            known = self.kb.setting_keys().get(mechanism, [])
            self.keys_by_words[mechanism] = (
                {norm_key(k) for k in known},
                {tuple(sorted(re.split(r"[._-]", norm_key(k)))): k for k in known},
            )
        return self.keys_by_words[mechanism]

    def misspelled(self, kind: str, params: list[Parameter], mechanism: str, form: str) -> None:
        """A line that sets a key no kernel has but with the words of one a rule sets: it sets
        nothing (sysctl reports it and goes on), and the setting meant keeps its value."""
        for param in params:
            meant = self.same_words(mechanism, param.name)
            if meant is None or (known := self.rule_setting(mechanism, meant)) is None:
                continue
            self.add(
                "warning",
                known[0],
                kind,
                param.line,
                f"{param.name} is no setting: {meant} has the same words in its order, so this "
                f"line sets nothing and {meant} keeps its value.",
                form.format(key=meant, value=param.value),
                known[1].replace("_", " "),
                about=[norm_key(param.name)],
            )

    def refused(self, kind: str, params: list[Parameter], mechanism: str, form: str) -> None:
        """Lines that try to set a setting in a form their command rejects. The line sets
        nothing, whatever the value: a warning where the plan or any rule of the knowledge base
        knows the setting (the fix is the user's own value in the working form)."""
        planned = {norm_key(s.key): s for s in self.plan.settings if s.mechanism == mechanism}
        written, why = _REFUSED_FORMS.get(kind, _REFUSED_FORMS["ndd"])
        for param in params:
            meant = self.same_words(mechanism, param.name) or param.name
            setting = planned.get(norm_key(meant))
            if setting is not None:
                rule_id = setting.rules[0]
                fix = form.format(key=setting.key, value=setting.value)
                needs = setting.requires.replace("_", " ")
                planned_words = ""
            elif (known := self.rule_setting(mechanism, meant)) is not None:
                rule_id, needs = known[0], known[1].replace("_", " ")
                fix = form.format(key=meant, value=param.value)
                planned_words = (
                    f" The plan does not set it on this platform; the fix is what the line "
                    f"meant, in the form {rule_id} writes it."
                )
            else:
                shown = written.format(name=param.name, value=param.value)
                self.unshown.append(
                    f"{kind} line {param.line}: {shown}: {why.format(name=param.name)}"
                )
                continue
            misnamed = (
                f" ({param.name} is no setting: {meant} has the same words in its order.)"
                if meant != param.name
                else ""
            )
            self.add(
                "warning" if setting is None else self.severity(rule_id),
                rule_id,
                kind,
                param.line,
                f"{written.format(name=param.name, value=param.value)}: "
                f"{why.format(name=meant)}.{misnamed}" + planned_words,
                fix,
                needs,
                about=[norm_key(param.name)],
            )

    def rule_setting(self, mechanism: str, key: str) -> tuple[str, str] | None:
        """A rule of the knowledge base that sets ``key`` with ``mechanism`` (whether or not it
        applies here), the latest in effect on the plan's date, else the earliest; and what the
        change needs."""
        found = sorted(
            (rule.effective_from, rule.id, setting.requires)
            for rule in self.kb.rules.values()
            for setting in rule.effects.settings
            if setting.mechanism == mechanism and norm_key(setting.key) == norm_key(key)
        )
        if not found:
            return None
        in_effect = [f for f in found if f[0] <= self.plan.as_of]
        _, rule_id, requires = in_effect[-1] if in_effect else found[0]
        return rule_id, requires

    def ontap_fields(self, records: list[OntapRecord]) -> None:
        """`vserver nfs show`, `volume show` and `network port show` fields of clustered ONTAP."""
        wanted = {
            "ontap_nfs_server": [
                r for r in records if "volume" not in r.keys and "port" not in r.keys
            ],
            "ontap_volume": [r for r in records if "volume" in r.keys],
            "ontap_snapshot_policy": [r for r in records if "volume" in r.keys],
            "ontap_port": [r for r in records if "port" in r.keys],
        }
        for setting in self.plan.settings:
            rows = wanted.get(setting.mechanism)
            if not rows:
                continue
            if setting.mechanism in ("ontap_volume", "ontap_snapshot_policy"):
                # Only the plan's own volumes: another name says nothing of what it holds.
                rows = [r for r in rows if r.keys.get("volume") in setting.applies_to]
                if not rows:
                    self.unshown.append(
                        f"{setting.key} ({', '.join(setting.applies_to)}): no pasted volume has "
                        "a planned volume's name"
                    )
                    continue
            for row in rows:
                value = row.fields.get(setting.key)
                if value is None or same_value(value, setting.value):
                    continue
                where = ", ".join(f"{k} {v}" for k, v in row.keys.items()) or "the NFS server"
                self.add(
                    self.severity(setting.rules[0]),
                    setting.rules[0],
                    "ontap_fields",
                    row.line,
                    f"{where}: {setting.key} is {value}; the plan sets {setting.value}.",
                    None,
                    setting.requires.replace("_", " "),
                    about=[norm_key(setting.key)],
                )

    def vol_options(self, params: list[Parameter]) -> None:
        found = {p.name: p for p in params}
        for setting in self.plan.settings:
            if setting.mechanism != "ontap7_vol_option":
                continue
            present = found.get(setting.key)
            if present is not None and not same_value(present.value, setting.value):
                replaced = [s for s in self.plan.superseded if setting.rules[0] in s.by]
                history = (
                    f" (earlier advice, {replaced[0].rule}, was {present.value}; replaced "
                    f"{replaced[0].replaced_on.isoformat()})"
                    if replaced
                    else ""
                )
                self.add(
                    "warning",
                    setting.rules[0],
                    "vol_options",
                    present.line,
                    f"{setting.key}={present.value}; the plan sets {setting.value}{history}.",
                    about=[norm_key(setting.key)],
                )
