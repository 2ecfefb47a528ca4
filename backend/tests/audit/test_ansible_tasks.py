"""Ansible tasks of the mount module are read as the fstab lines they write (NetApp's RDS Custom
playbook of 2022 mounts its FSx volumes this way), and audited as such."""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient

from nasplan.audit.ansible_tasks import parse_ansible_mounts
from nasplan.audit.detect import detect_kind
from tests.audit.by_key import findings_by_key
from tests.platforms import linux_ontap

PLAYBOOK = """\
- hosts: db
  vars:
    nfs_lif: 10.0.0.5
    volumes:
      - ora_data
      - ora_redo
  tasks:
    - block:
        - name: mount the Oracle volumes
          ansible.posix.mount:
            path: "/{{ item }}"
            src: "{{ nfs_lif }}:/{{ item }}"
            fstype: nfs
            opts: "rw,bg,hard,vers=3,tcp"
            state: mounted
          loop: "{{ volumes }}"
    - mount: path=/u04/arch src=nas:/arch fstype=nfs4 opts=rw,soft state=ephemeral
    - mount: {path: /export, src: /dev/sdb1, fstype: xfs, state: mounted}
    - name: gone
      ansible.builtin.mount: {path: /old, src: "nas:/old", fstype: nfs, state: absent}
"""


def _entries(text: str) -> list[tuple[int, str, str, list[str], bool]]:
    return [
        (e.line, e.device, e.mount_point, e.options, e.for_fstab)
        for e in parse_ansible_mounts(text).items
    ]


def test_mount_tasks_are_the_fstab_lines_they_write() -> None:
    assert detect_kind(PLAYBOOK) is not None
    assert detect_kind(PLAYBOOK).kind == "ansible_mount"  # type: ignore[union-attr]
    assert _entries(PLAYBOOK) == [
        (14, "10.0.0.5:/ora_data", "/ora_data", ["rw", "bg", "hard", "vers=3", "tcp"], True),
        (14, "10.0.0.5:/ora_redo", "/ora_redo", ["rw", "bg", "hard", "vers=3", "tcp"], True),
        # key=value arguments; an ephemeral mount is made now and written to no fstab
        (17, "nas:/arch", "/u04/arch", ["rw", "soft"], False),
    ]


def test_a_task_written_as_a_flow_mapping_is_recognised() -> None:
    text = "- mount: {path: /u02, src: 'nas:/d', fstype: nfs, opts: 'rw,hard', state: mounted}\n"
    assert detect_kind(text) is not None
    assert detect_kind(text).kind == "ansible_mount"  # type: ignore[union-attr]
    assert _entries(text) == [(1, "nas:/d", "/u02", ["rw", "hard"], True)]


def test_what_the_paste_does_not_set_stays_as_written() -> None:
    """A loop over a list the paste does not hold runs once, its item left as written, and a
    value set elsewhere (or with a filter) stays in braces for the audit to leave unjudged."""
    text = (
        "- mount:\n"
        "    path: '/{{ item }}'\n"
        "    src: '{{ lif }}:/{{ item }}'\n"
        "    fstype: nfs\n"
        "    opts: '{{ nfs_opts | default(\"rw\") }},hard'\n"
        "  with_items: ['{{ ora_volumes }}']\n"
    )
    assert _entries(text) == [
        (
            5,
            "{{ lif }}:/{{ item }}",
            "/{{ item }}",
            ['{{ nfs_opts | default("rw") }}', "hard"],
            True,
        )
    ]


def test_what_is_not_yaml_or_is_nested_too_deep_reads_nothing() -> None:
    for text in ("mount: [unclosed\n  fstype: nfs\n", "[\n" * 3000 + "]\n" * 3000, "a: *b\n"):
        assert parse_ansible_mounts(text).items == []


OL8 = linux_ontap(
    dnfs=False,
    host={"os": "linux", "os_version": "ol8", "arch": "x86_64"},
    oracle={"version": "19.21", "dnfs": False},
    filer={"vendor": "generic"},
)


def _audit(client: TestClient, text: str) -> dict[str, list[dict[str, Any]]]:
    body = {"platform": OL8, "pastes": [{"name": "play", "kind": "auto", "text": text}]}
    return findings_by_key(client, body | {"roles": {"/u02/oradata": ["data"]}})


def test_a_soft_mount_task_is_an_error_on_its_opts_line(client: TestClient) -> None:
    text = (
        "- name: data files\n"
        "  ansible.posix.mount:\n"
        "    path: /u02/oradata\n"
        "    src: nas:/vol/oradata\n"
        "    fstype: nfs\n"
        "    opts: rw,bg,soft,vers=3,tcp,rsize=1048576,wsize=1048576\n"
        "    state: mounted\n"
    )
    found = _audit(client, text)
    hardness = found["hardness"]
    assert [(f["severity"], f["line"]) for f in hardness] == [("error", 6)], hardness
    assert hardness[0]["file"] == "ansible_mount"
    assert "hard" in hardness[0]["fix"] and "/u02/oradata" in hardness[0]["fix"], hardness


def test_options_from_a_variable_the_paste_does_not_set_are_not_judged(
    client: TestClient,
) -> None:
    text = (
        "- ansible.posix.mount:\n"
        "    path: /u02/oradata\n"
        "    src: nas:/vol/oradata\n"
        "    fstype: nfs\n"
        "    opts: '{{ oracle_nfs_opts }}'\n"
        "    state: mounted\n"
    )
    found = _audit(client, text)
    raised = [f for fs in found.values() for f in fs if f["severity"] != "info"]
    assert raised == [], raised
    assert "{{ oracle_nfs_opts }}" in found["vers"][0]["message"], found["vers"]
