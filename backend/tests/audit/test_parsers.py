from __future__ import annotations

from nasplan.audit.mount_tables import (
    parse_filesystems,
    parse_fstab,
    parse_mount_output,
    parse_vfstab,
)
from nasplan.audit.ontap import parse_vol_options
from nasplan.audit.oranfstab import parse_oranfstab
from nasplan.audit.parameter_files import parse_init_ora


def test_vfstab_keeps_nfs_lines_and_reports_others() -> None:
    parsed = parse_vfstab(
        "#device\tfsck\tmount\n"
        "filer01:/vol/d - /u02/oradata/PROD nfs - yes rw,bg,hard\n"
        "/dev/dsk/c0t0d0s0 /dev/rdsk/c0t0d0s0 / ufs 1 no -\n"
    )
    assert [(e.line, e.device, e.mount_point, e.options) for e in parsed.items] == [
        (2, "filer01:/vol/d", "/u02/oradata/PROD", ["rw", "bg", "hard"])
    ]
    assert parsed.ignored == [3]


def test_fstab() -> None:
    parsed = parse_fstab("filer01:/d /u02 nfs rw,tcp,nfsvers=3 0 0\nUUID=x / xfs defaults 0 0\n")
    assert parsed.items[0].options == ["rw", "tcp", "nfsvers=3"]
    assert parsed.ignored == [2]


def test_fstab_lines_that_stop_before_their_options_mount_with_the_defaults() -> None:
    """Issue 26: `server:/x /mnt nfs` is an fstab line (fstab(5) lets the last fields go), read
    as `defaults`, so the audit reports what it lacks instead of refusing the paste."""
    parsed = parse_fstab("filer01:/d /u02 nfs\nfiler01:/r /u03 nfs defaults\n/dev/sda1 /boot\n")
    assert [(e.line, e.mount_point, e.options) for e in parsed.items] == [
        (1, "/u02", ["defaults"]),
        (2, "/u03", ["defaults"]),
    ]
    assert parsed.ignored == [3]


def test_aix_stanzas() -> None:
    parsed = parse_filesystems(
        "/u02/oradata/ORCL:\n\tdev = /vol/orcl_data\n\tvfs = nfs\n\tnodename = filer01\n"
        "\toptions = rw,bg,hard,cio\n\n/home:\n\tdev = /dev/hd1\n\tvfs = jfs2\n"
    )
    assert len(parsed.items) == 1
    entry = parsed.items[0]
    assert (entry.device, entry.mount_point, entry.options) == (
        "filer01:/vol/orcl_data",
        "/u02/oradata/ORCL",
        ["rw", "bg", "hard", "cio"],
    )


def test_mount_outputs() -> None:
    linux = parse_mount_output(
        "filer01:/d on /u02 type nfs (rw,relatime,vers=3,rsize=65536,hard,proto=tcp)"
    )
    assert linux.items[0].options[2] == "vers=3"
    proc = parse_mount_output("filer01:/d /u02 nfs4 rw,vers=4.1,rsize=262144 0 0")
    assert proc.items[0].mount_point == "/u02"
    nfsstat = parse_mount_output(
        "/u02/oradata/PROD from filer01:/vol/d\n Flags: vers=3,proto=tcp,hard,forcedirectio\n"
        " Attr cache: acregmin=3\n/u03 from filer01:/vol/r\n Flags: vers=3\n"
    )
    assert [e.mount_point for e in nfsstat.items] == ["/u02/oradata/PROD", "/u03"]
    assert "forcedirectio" in nfsstat.items[0].options
    solaris = parse_mount_output(
        "/u02 on filer01:/vol/d remote/read/write/setuid/forcedirectio/dev=4 on Mon Jan 1"
    )
    assert "forcedirectio" in solaris.items[0].options


def test_init_ora_and_vol_options() -> None:
    params = parse_init_ora("*.filesystemio_options='SETALL'\n# c\ndb_block_size = 8192 # x\nbad")
    assert [(p.name, p.value) for p in params.items] == [
        ("filesystemio_options", "SETALL"),
        ("db_block_size", "8192"),
    ]
    assert params.ignored == [4]
    # A name and value table, as documents print a pfile (tabs or spaces between); a header and
    # a dashes line are not parameters.
    table = parse_init_ora(
        "NAME VALUE\n---- -----\ncompatible\t10.2.0.1.0\n_log_parallelism   4\n"
        "filesystemio_options  'SETALL'\nlonely\n"
    )
    assert [(p.name, p.value) for p in table.items] == [
        ("compatible", "10.2.0.1.0"),
        ("_log_parallelism", "4"),
        ("filesystemio_options", "SETALL"),
    ]
    assert table.ignored == [1, 2, 6]
    vol = parse_vol_options("nosnap=on, nosnapdir=off, minra=on,\nnvfail=off")
    assert {p.name: p.value for p in vol.items} == {
        "nosnap": "on",
        "nosnapdir": "off",
        "minra": "on",
        "nvfail": "off",
    }


def test_oranfstab() -> None:
    parsed = parse_oranfstab(
        "server: filer01\nlocal: 10.0.0.1\npath: 10.0.0.10\npath: 10.0.1.10\n"
        "export: /vol/d mount: /u02\nnfs_version: nfsv3\nserver: filer02\nexport: /e mount: /m\n"
    )
    assert [(s.server, len(s.paths), s.exports, s.nfs_version) for s in parsed.items] == [
        ("filer01", 2, [("/vol/d", "/u02")], "nfsv3"),
        ("filer02", 0, [("/e", "/m")], None),
    ]
