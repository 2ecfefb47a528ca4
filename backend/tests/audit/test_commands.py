"""mount commands typed at a shell, in each OS's form (issue 26: they were misread as fstab)."""

from __future__ import annotations

from fastapi.testclient import TestClient

from nasplan.audit.commands import parse_mount_commands
from nasplan.domain.platform import EXAMPLE_PLATFORM


def _entries(text: str) -> list[tuple[int, str, str, list[str]]]:
    return [(e.line, e.device, e.mount_point, e.options) for e in parse_mount_commands(text).items]


def test_linux_solaris_hpux_and_aix_forms_give_source_mount_point_and_options() -> None:
    text = (
        "mount -t nfs -o rw,hard,vers=3 filer01:/vol/d /u02/oradata\n"  # Linux
        "# mount -F nfs -o rw,hard,forcedirectio filer01:/vol/r /u03/oraredo\n"  # Solaris, HP-UX
        "mount -v nfs -n filer01 -o rw,hard,cio /vol/a /u04/oraarch\n"  # AIX, node apart
        "mount -o rw,bg,hard filer01:/vol/b /backup\n"  # AIX and Linux, type from the source
        "$ sudo mount -tnfs4 -orw,hard nfs1:/export/x /x\n"  # joined flags, a prompt, sudo
    )
    assert _entries(text) == [
        (1, "filer01:/vol/d", "/u02/oradata", ["rw", "hard", "vers=3"]),
        (2, "filer01:/vol/r", "/u03/oraredo", ["rw", "hard", "forcedirectio"]),
        (3, "filer01:/vol/a", "/u04/oraarch", ["rw", "hard", "cio"]),
        (4, "filer01:/vol/b", "/backup", ["rw", "bg", "hard"]),
        (5, "nfs1:/export/x", "/x", ["rw", "hard"]),
    ]


def test_what_is_not_an_nfs_mount_command_is_ignored() -> None:
    text = (
        "mount -t ext4 /dev/sdb1 /data\n"  # not NFS
        "mount -t nfs filer01:/vol/d\n"  # no mount point
        "echo mount -t nfs a:/b /c\n"  # not a mount command
        "mount -o 'rw,hard filer01:/vol/d /u02\n"  # an unbalanced quote
        "mount -v -n -t nfs filer01:/vol/d /u02\n"  # Linux -v and -n take no value
    )
    parsed = parse_mount_commands(text)
    assert parsed.ignored == [1, 2, 3, 4]
    assert [(e.device, e.mount_point, e.options) for e in parsed.items] == [
        ("filer01:/vol/d", "/u02", ["defaults"])
    ]


def test_a_pasted_command_is_audited_by_its_mount_point(client: TestClient) -> None:
    platform = {**EXAMPLE_PLATFORM}
    text = "mount -F nfs -o rw,bg,hard,intr filer01:/vol/prod_redo /u03/oralog/PROD\n"
    paste = {"name": "runbook step", "kind": "auto", "text": text}
    response = client.post("/api/v1/audits", json={"platform": platform, "pastes": [paste]})
    assert response.status_code == 200, response.text
    report = response.json()
    assert report["checked"] == {"mount_command": 1}
    assert report["recognised"][0]["kind"] == "mount_command"
    messages = [f["message"] for f in report["findings"]]
    assert any(m.startswith("/u03/oralog/PROD") and "intr" in m for m in messages), messages
    assert not any(m.startswith("-") for m in messages)


def test_a_placeholder_with_spaces_is_one_word() -> None:
    """Documents write what the reader fills in as ``<storage account name>`` (corpus case
    lnx-azure-levelup-orabackup-mount-2023): its spaces do not split the source in three."""
    parsed = parse_mount_commands(
        "sudo mount -t nfs <storage account name>.file.core.windows.net:/<storage account name>"
        "/<share name> /mnt/orabackup -o vers=4,minorversion=1,sec=sys\n"
        "mount -t nfs <nfs server>:/export /u02 -o vers=3\n"
    )
    assert [(e.line, e.device, e.mount_point) for e in parsed.items] == [
        (
            1,
            "<storage_account_name>.file.core.windows.net:/<storage_account_name>/<share_name>",
            "/mnt/orabackup",
        ),
        (2, "<nfs_server>:/export", "/u02"),
    ]


def test_a_command_quoted_whole_for_ssh_or_a_shell_is_read() -> None:
    """A script that mounts on another host (``ssh host "sudo mount ..."``, corpus case
    ven-azure-oravm-anf-nfs41-dnfs-mount-2022) or through ``sh -c '...'`` quotes the command
    whole: the quoted word is read as the command, named by the line of its options."""
    parsed = parse_mount_commands(
        'ssh -o StrictHostKeyChecking=no oracle@db1 "\\\n'
        "sudo mount -t nfs \\\n"
        "-o rw,hard,vers=4.1,tcp \\\n"
        '10.0.0.4:/oradata /u02" >> /tmp/log 2>&1\n'
        "sh -c 'mount -t nfs nas1:/arch /u03 -o vers=3'\n"
        'bash -c "echo mount"\n'
    )
    assert [(e.line, e.device, e.mount_point) for e in parsed.items] == [
        (3, "10.0.0.4:/oradata", "/u02"),
        (5, "nas1:/arch", "/u03"),
    ]
    assert parsed.ignored == [6]


def test_an_fstab_line_written_by_echo_is_read_as_that_line() -> None:
    """Guides add the mount to /etc/fstab with a shell command; the line it writes is what is
    mounted at every boot (the levelup Azure lab's step 4, typographic quote and all)."""
    text = (
        'echo "filer01:/vol/d /u02/oradata nfs rw,bg,hard,vers=3 0 0" >> /etc/fstab\n'
        "echo 'filer01:/vol/r /u03/oraredo nfs4 rw,hard 0 0' | sudo tee -a /etc/fstab\n"
        "sudo sh -c 'echo \"filer01:/vol/a /u04/oraarch nfs defaults 0 0\" >> /etc/fstab'\n"
        "sudo bash -c \u2018echo <account>.file.core.windows.net:/<account>/<share> "
        "/mnt/orabackup nfs -o vers=4,minorversion=1,uid=oracle 0 0\n"
        "echo mount -t nfs a:/b /c\n"  # prints a command, writes no fstab line
        "echo filer01:/vol/d /u02 ext4 defaults 0 0\n"  # not NFS
    )
    parsed = parse_mount_commands(text)
    assert _entries(text) == [
        (1, "filer01:/vol/d", "/u02/oradata", ["rw", "bg", "hard", "vers=3"]),
        (2, "filer01:/vol/r", "/u03/oraredo", ["rw", "hard"]),
        (3, "filer01:/vol/a", "/u04/oraarch", ["defaults"]),
        (
            4,
            "<account>.file.core.windows.net:/<account>/<share>",
            "/mnt/orabackup",
            ["-o", "vers=4", "minorversion=1", "uid=oracle"],
        ),
    ]
    assert all(entry.for_fstab for entry in parsed.items)
    assert parsed.ignored == [5, 6]


def test_an_echoed_fstab_line_may_name_its_mount_point_by_a_shell_variable() -> None:
    """Scripts write the line for a mount point they computed (Cohesity's Oracle backup script
    of 2021: ``${mount}$i``), as their mount commands name it; the command reader takes such a
    mount point, and so does the echo reader. A word that is neither a path nor a variable
    still names no mount point."""
    text = (
        '   echo "${ip}:/${view} ${mount}$i nfs intr,hard,vers=3 0 0" >>/etc/fstab\n'
        'echo "filer01:/vol/d u02 nfs rw,hard 0 0" >> /etc/fstab\n'
    )
    assert _entries(text) == [(1, "${ip}:/${view}", "${mount}$i", ["intr", "hard", "vers=3"])]
    assert parse_mount_commands(text).ignored == [2]


def test_a_command_over_several_lines_is_named_by_the_line_of_its_options() -> None:
    """A finding on the options of a continued command points at the line that holds them
    (an AIX stanza is named by its options line the same way); an -o of ssh before the mount
    command is not that line."""
    text = (
        'ssh -o StrictHostKeyChecking=no oracle@db1 "\\\n'
        "sudo mount -t nfs \\\n"
        "-o rw,hard,vers=4.1 \\\n"
        'anf1:/vol1 /u02" >> /tmp/log 2>&1\n'
        "mount -F nfs -o rw,hard filer:/x \\\n"
        "/u03\n"
        "mount -t nfs filer:/y /u04\n"
    )
    assert [(e.line, e.mount_point) for e in parse_mount_commands(text).items] == [
        (3, "/u02"),
        (5, "/u03"),
        (7, "/u04"),
    ]


def test_a_command_substitution_is_one_word_of_its_command() -> None:
    """The shell fills ``$(cat f)`` or a backquoted command in as one value; its space and
    parentheses do not end the command, and the words come back as written. A paste that holds
    the private marks the reader uses for this is read without holding anything."""
    text = (
        "mount -t nfs -o $(cat /etc/ora opts) nas:/vol/d /u02/oradata\n"
        "mount -o `cat /etc/o` nas:/vol/r /u03/oraredo\n"
        "mount -o hard,\ue0000\ue001 nas:/vol/a /u04/arch\n"
    )
    assert _entries(text) == [
        (1, "nas:/vol/d", "/u02/oradata", ["$(cat /etc/ora opts)"]),
        (2, "nas:/vol/r", "/u03/oraredo", ["`cat /etc/o`"]),
        (3, "nas:/vol/a", "/u04/arch", ["hard", "\ue0000\ue001"]),
    ]
