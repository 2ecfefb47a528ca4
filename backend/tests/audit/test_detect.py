from __future__ import annotations

import pytest

from nasplan.audit.detect import DETECTION_RULES as RULES
from nasplan.audit.detect import detect_kind, guess_oracle_release
from nasplan.audit.kinds import FILE_KINDS, implied_os, spec_of
from nasplan.audit.parsers import (
    Parameter,
)
from nasplan.audit.sqlplus import (
    parse_show_parameter,
)
from nasplan.knowledge.base import KnowledgeBase
from nasplan.knowledge.catalog import OracleCatalog, OracleRelease
from tests.audit.test_outputs import SHOW_PARAMETER, SPFILE, SYSCTL_A

SAMPLES: list[tuple[str, str, str]] = [
    # Issue 26: these were taken for an fstab whose mount point was "-t" or "-F".
    (
        "mount_command",
        "high",
        "mount -t nfs -o rw,bg,hard,vers=3,proto=tcp,timeo=600 filer01:/vol/d /u02/oradata\n",
    ),
    ("mount_command", "high", "# mount -F nfs -o rw,bg,hard,forcedirectio filer01:/vol/r /u03\n"),
    ("mount_command", "high", "$ sudo mount -v nfs -n filer01 -o rw,bg,hard,cio /vol/a /u04\n"),
    (
        "fstab",
        "high",
        "# /etc/fstab\nUUID=3e1b / xfs defaults 0 0\n"
        "filer01:/vol/orcl_data /u02/oradata nfs rw,bg,hard,nointr,rsize=65536,tcp,vers=3 0 0\n",
    ),
    ("fstab", "medium", "filer01:/vol/d\t/u02\tnfs\trw,hard,nfsvers=3,proto=tcp 0 0\r\n"),
    (
        "vfstab",
        "high",
        "#device         device          mount           FS      fsck    mount   mount\n"
        "#to mount       to fsck         point           type    pass    at boot options\n"
        "filer01:/vol/d  -               /u02/oradata    nfs     -       yes     rw,bg,hard\n",
    ),
    (
        "filesystems",
        "high",
        "/u02/oradata/ORCL:\n\tdev\t\t= /vol/orcl_data\n\tvfs\t\t= nfs\n"
        "\tnodename\t= filer01\n\tmount\t\t= true\n\toptions\t\t= rw,bg,hard,cio\n",
    ),
    ("filesystems", "medium", "/home:\n\tdev = /dev/hd1\n\tmount = true\n"),
    (
        "mount",
        "high",
        "filer01:/vol/d on /u02 type nfs (rw,relatime,vers=3,rsize=65536,hard,proto=tcp)\r\n",
    ),
    (
        "mount",
        "high",
        "rootfs / rootfs rw 0 0\nproc /proc proc rw,nosuid,nodev,noexec,relatime 0 0\n"
        "filer01:/vol/d /u02 nfs rw,relatime,vers=3,rsize=65536,hard,proto=tcp 0 0\n",
    ),
    (
        "mount",
        "high",
        "/u02/oradata/PROD from filer01:/vol/d\n"
        " Flags:\tvers=3,proto=tcp,sec=sys,hard,intr,forcedirectio,rsize=32768\n"
        " Attr cache:\tacregmin=3,acregmax=60\n",
    ),
    (
        "init.ora",
        "high",
        "# initORCL.ora\ndb_name = ORCL\ndb_block_size = 8192\nfilesystemio_options = setall\n",
    ),
    ("init.ora", "medium", "some_parameter = 1\r\nanother = two\r\n"),
    ("spfile", "high", SPFILE),
    ("spfile", "high", "ORCL.__db_cache_size=1124073472\nORCL.__shared_pool_size=402653184\n"),
    ("show_parameter", "high", SHOW_PARAMETER),
    (
        "oranfstab",
        "high",
        "server: filer01\r\nlocal: 10.0.0.1\r\npath: 10.0.0.10\r\n"
        "export: /vol/orcl_data mount: /u02/oradata\r\n",
    ),
    ("vol_options", "high", "nosnap=on, nosnapdir=off, minra=on, no_atime_update=on, nvfail=off"),
    ("vol_options", "medium", "foo=on, bar=off, baz=1"),
    (
        "options_nfs",
        "high",
        "filer01> options nfs\nnfs.tcp.enable               on\n"
        "nfs.tcp.xfersize             65536      (value might be overwritten in takeover)\n",
    ),
    (
        "ontap_fields",
        "high",
        "vserver volume    size\n------- --------- ----\nsvm1    orcl_data 2TB\n",
    ),
    (
        "ontap_fields",
        "high",
        "                            Vserver: svm1\n                 General NFS Access: true\n",
    ),
    (
        "ontap_fields",
        "medium",
        "policyname ruleindex protocol\n---------- --------- --------\noracle     1         nfs3\n",
    ),
    ("sysctl", "high", SYSCTL_A),
    ("sysctl", "medium", "custom.tuning.knob = 5\n"),
    (
        "nfso",
        "high",
        "         nfs_rfc1323 = 1\n      nfs_socketsize = 600000\n           portcheck = 0\n",
    ),
    ("nfso", "high", "root@p750:/# nfso -p -o nfs_rfc1323=1\n"),
    ("no", "high", "                 rfc1323 = 1\n                  sb_max = 4194304\n"),
    ("no", "high", "# /usr/sbin/no -o sb_max\n# /usr/sbin/no -p -o sb_max=524288\n"),
    (
        "etc_system",
        "high",
        "* NFS tuning\r\nset nfs:nfs3_max_transfer_size=1048576\r\nset nfs:nfs3_bsize=0x100000\r\n",
    ),
    # A pfile printed as a table of names and values (TR-3496 App. F prints one so).
    (
        "init.ora",
        "medium",
        "compatible\t10.2.0.1.0\nfilesystemio_options\tsetall\n_log_parallelism 4\n",
    ),
    (
        "ansible_mount",
        "high",
        "- name: Mount NFS file systems on Oracle hosts\n"
        "  ansible.posix.mount:\n"
        "    path: /u02/oradata\n"
        "    src: 'nas01:/vol/oradata'\n"
        "    fstype: nfs\n"
        "    opts: rw,bg,hard,vers=3\n"
        "    state: mounted\n",
    ),
    ("ndd", "high", "# ndd -get /dev/tcp tcp_max_buf\n1048576\n"),
    ("ndd", "high", "ndd -set /dev/tcp tcp_xmit_hiwat 65536\n"),
    (
        "ndd",
        "high",
        "PROTO PROPERTY  PERM CURRENT PERSISTENT DEFAULT POSSIBLE\n"
        "tcp   max_buf   rw   4194304 4194304    1048576 128000-1073741824\n",
    ),
    (
        "dnfs_servers",
        "high",
        "        ID SVRNAME    DIRNAME         WTMAX      RTMAX\n"
        "---------- ---------- ---------- ---------- ----------\n"
        "         1 filer01    /vol/d        1048576    1048576\n",
    ),
]


@pytest.mark.parametrize(("kind", "confidence", "text"), SAMPLES)
def test_detect_kind_of_realistic_pastes(kind: str, confidence: str, text: str) -> None:
    detected = detect_kind(text)
    assert detected is not None
    assert (detected.kind, detected.confidence) == (kind, confidence)
    assert detected.reason
    if confidence == "high":
        spec = spec_of(kind)
        assert spec is not None and spec.parse(text).items, "the kind's parser reads the sample"


def test_every_kind_has_a_sample_and_is_recognised() -> None:
    assert {kind for kind, _, _ in SAMPLES} == set(FILE_KINDS)
    assert {kind for kind, _, _, _ in RULES} == set(FILE_KINDS)


def test_a_lone_fstab_line_without_options_is_an_fstab() -> None:
    detected = detect_kind("filer01:/vol/ora_redo /u03/oraredo nfs\n")
    assert detected is not None and detected.kind == "fstab"
    # Three words with nfs in the middle but no server:/path are not enough.
    assert detect_kind("mount point nfs\n") is None


@pytest.mark.parametrize("text", ["", "   \n\t\r\n", "hello world\n", "\x00\x01\x02", "- - -"])
def test_detect_kind_gives_up_on_text_that_fits_nothing(text: str) -> None:
    assert detect_kind(text) is None


def test_detection_ignores_line_endings() -> None:
    text = "set nfs:nfs3_max_transfer_size = 1048576\n"
    for variant in (text, text.replace("\n", "\r\n"), text.replace("\n", "\r")):
        detected = detect_kind(variant)
        assert detected is not None and detected.kind == "etc_system"


@pytest.mark.parametrize(
    ("kind", "os_name"),
    [
        ("vfstab", "solaris"),
        ("etc_system", "solaris"),
        ("ndd", "solaris"),
        ("filesystems", "aix"),
        ("nfso", "aix"),
        ("no", "aix"),
        ("sysctl", "linux"),
        ("fstab", None),
        ("mount", None),
        ("init.ora", None),
        ("ontap_fields", None),
        ("unknown", None),
    ],
)
def test_guess_os(kind: str, os_name: str | None) -> None:
    assert implied_os(kind) == os_name


@pytest.mark.parametrize(
    ("compatible", "release"),
    [
        ("19.0.0", "19c"),
        ("'19.0.0'", "19c"),
        ("11.2.0.4.0", "11gR2"),
        ("12.2.0", "12cR2"),
        ("12.1.0.2", "12cR1"),
        ("10.2.0.5", "10gR2"),
        ("9.2.0.0.0", "9i"),
        ("8.1.7", "8i"),
        ("23.0.0", "23ai"),
        ("8.1.6", None),
        ("30.0", None),
        ("banana", None),
        ("", None),
        # more digits than int() takes: was a ValueError (HTTP 500)
        pytest.param("1" * 5000, None, id="5000-digits"),
    ],
)
def test_guess_oracle_release_from_compatible(
    kb: KnowledgeBase, compatible: str, release: str | None
) -> None:
    params = [Parameter(1, "db_block_size", "8192"), Parameter(2, "compatible", compatible)]
    assert guess_oracle_release(params, kb.oracle) == release


def test_guess_oracle_release_without_compatible_or_with_a_given_catalog(
    kb: KnowledgeBase,
) -> None:
    assert guess_oracle_release([Parameter(1, "db_name", "ORCL")], kb.oracle) is None
    catalog = OracleCatalog(
        releases=[OracleRelease(id="future", label="Future", range=">=40,<41")], examples=[]
    )
    assert guess_oracle_release([Parameter(3, "COMPATIBLE", "40.1")], catalog) == "future"
    assert guess_oracle_release([Parameter(3, "compatible", "19.0.0")], catalog) is None


def test_release_guess_from_a_parsed_show_parameter_paste(kb: KnowledgeBase) -> None:
    parsed = parse_show_parameter(
        "NAME                                 TYPE        VALUE\n"
        "------------------------------------ ----------- ------------------------------\n"
        "compatible                           string      11.2.0.4.0\n"
        "noncdb_compatible                    boolean     FALSE\n"
    )
    assert guess_oracle_release(parsed.items, kb.oracle) == "11gR2"
