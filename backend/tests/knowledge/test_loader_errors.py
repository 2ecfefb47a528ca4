"""A broken knowledge base stops start-up with the file, rule id and field named."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from nasplan.knowledge.loader import DEFAULT_KNOWLEDGE_DIR, KnowledgeError, load_knowledge


@pytest.fixture()
def kb_copy(tmp_path: Path) -> Path:
    target = tmp_path / "knowledge"
    shutil.copytree(DEFAULT_KNOWLEDGE_DIR, target)
    return target


def _break(path: Path, old: str, new: str) -> None:
    text = path.read_text()
    assert old in text
    path.write_text(text.replace(old, new, 1))


def _load_error(root: Path) -> str:
    """The message a knowledge folder that must not load is refused with."""
    with pytest.raises(KnowledgeError) as info:
        load_knowledge(root)
    return str(info.value)


def test_bad_field_names_file_rule_and_field(kb_copy: Path) -> None:
    _break(
        kb_copy / "rules/filer/NTAP-MINRA-OFF.yaml",
        'filer_release: ">=6.5.1"',
        'filer_release: "6.5.1 and later"',
    )
    message = _load_error(kb_copy)
    assert "knowledge/rules/filer/NTAP-MINRA-OFF.yaml" in message
    assert "rule NTAP-MINRA-OFF" in message
    assert "when.filer_release" in message


def test_unknown_source_and_option_are_refused(kb_copy: Path) -> None:
    _break(kb_copy / "rules/mount/MNT-SUID.yaml", "{id: nfs-slides,", "{id: no-such-doc,")
    _break(kb_copy / "rules/mount/MNT-SUID.yaml", "options: [suid]", "options: [cio]")
    with pytest.raises(KnowledgeError) as info:
        load_knowledge(kb_copy)
    message = str(info.value)
    assert "rule MNT-SUID: unknown source no-such-doc" in message
    assert "option 'cio' is not in the solaris vocabulary" in message


def test_unknown_supersession_target(kb_copy: Path) -> None:
    _break(
        kb_copy / "rules/filer/NTAP-MINRA-OFF.yaml",
        "supersedes: [NTAP-MINRA-ON-OLTP]",
        "supersedes: [NTAP-MINRA-GONE]",
    )
    with pytest.raises(KnowledgeError, match="field supersedes: unknown rule NTAP-MINRA-GONE"):
        load_knowledge(kb_copy)


def test_invalid_yaml(kb_copy: Path) -> None:
    (kb_copy / "rules/mount/MNT-SUID.yaml").write_text("id: [unclosed\n")
    with pytest.raises(KnowledgeError, match=r"MNT-SUID\.yaml: not valid YAML"):
        load_knowledge(kb_copy)


def test_a_renamed_os_key_names_its_file_not_a_bare_key_error(kb_copy: Path) -> None:
    # Issue 28: renaming a catalog key crashed the loader with KeyError: 'aix'.
    _break(kb_copy / "catalog/os.yaml", "\naix:", "\nibmaix:")
    with pytest.raises(KnowledgeError) as info:
        load_knowledge(kb_copy)
    assert "knowledge/catalog/os.yaml: field ibmaix" in str(info.value)


def test_a_rule_outside_its_category_folder_is_refused(kb_copy: Path) -> None:
    # Issue 28: "a rule in the wrong folder loads".
    (kb_copy / "rules/filer/NTAP-MINRA-OFF.yaml").rename(kb_copy / "rules/host/NTAP-MINRA-OFF.yaml")
    with pytest.raises(KnowledgeError) as info:
        load_knowledge(kb_copy)
    assert (
        "knowledge/rules/host/NTAP-MINRA-OFF.yaml: rule NTAP-MINRA-OFF: field category: filer, "
        "but the file is in rules/host/"
    ) in str(info.value)


def test_an_os_default_must_name_an_option_of_its_os_and_a_known_source(kb_copy: Path) -> None:
    path = kb_copy / "catalog/os_defaults.yaml"
    _break(path, "value: hard\n", "value: cio\n")
    _break(path, "{id: linux-ip-sysctl,", "{id: no-such-manual,")
    with pytest.raises(KnowledgeError) as info:
        load_knowledge(kb_copy)
    message = str(info.value)
    assert "os_defaults.yaml: linux hardness: cio is not a mount option of linux" in message
    assert "unknown source no-such-manual" in message


def test_an_option_the_client_ignores_must_say_since_when(kb_copy: Path) -> None:
    """An os default marked ignored turns a different value into an info; the note is what that
    info tells the user, so the default cannot load without one."""
    _break(
        kb_copy / "catalog/os_defaults.yaml",
        "    ignored: true\n    note: from Linux 2.6.25 intr and nointr are ignored and only "
        "SIGKILL interrupts a pending request\n",
        "    ignored: true\n",
    )
    message = _load_error(kb_copy)
    assert "os_defaults.yaml" in message and "an ignored option needs a note" in message


def test_an_implied_option_must_be_an_option_of_its_os_with_a_known_source(
    kb_copy: Path,
) -> None:
    path = kb_copy / "catalog/mount_options.yaml"
    _break(
        path,
        "options: [actimeo=0], source: {id: linux-nfs-man,",
        "options: [cio], source: {id: no-such-page,",
    )
    message = _load_error(kb_copy)
    assert "mount_options.yaml: noac on linux: cio is not a mount option of linux" in message
    assert "unknown source no-such-page" in message


def test_an_option_the_linux_client_does_not_take_is_refused(kb_copy: Path) -> None:
    """The planner writes only what the Linux NFS client takes (catalog/client_options.yaml):
    an option of the vocabulary given to Linux that is not in the client's table stops loading."""
    _break(
        kb_copy / "catalog/mount_options.yaml",
        "{token: llock, key: llock, excludes: [forcedirectio], os: [solaris], order: 13}",
        "{token: llock, key: llock, excludes: [forcedirectio], os: [solaris, linux], order: 13}",
    )
    message = _load_error(kb_copy)
    assert "knowledge/catalog/client_options.yaml: linux: llock" in message
