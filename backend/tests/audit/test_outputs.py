from __future__ import annotations

import random
from collections.abc import Callable

from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from nasplan.audit.detect import detect_kind
from nasplan.audit.ontap import OntapRecord, parse_ontap_fields, parse_options_nfs
from nasplan.audit.parameter_files import (
    ScopedParameter,
    parse_spfile_scoped,
    parse_spfile_text,
)
from nasplan.audit.parsers import Parameter, Parsed
from nasplan.audit.sqlplus import DnfsServer, parse_dnfs_servers, parse_show_parameter
from nasplan.audit.tunables import (
    parse_etc_system,
    parse_ndd,
    parse_nfso,
    parse_no,
    parse_sysctl,
)


def _pairs(parsed: Parsed[Parameter]) -> list[tuple[int, str, str]]:
    return [(p.line, p.name, p.value) for p in parsed.items]


# --- sysctl -------------------------------------------------------------------------------------


SYSCTL_A = (
    "[root@db01 ~]# sysctl -a | egrep 'rmem|wmem|sunrpc'\r\n"
    "net.core.rmem_default = 262144\r\n"
    "net.core.rmem_max = 4194304\r\n"
    "net.ipv4.tcp_rmem = 4096\t87380\t16777216\r\n"
    "net.ipv4.tcp_wmem = 4096   16384   16777216\r\n"
    "sysctl: permission denied on key 'fs.protected_hardlinks'\r\n"
    "sunrpc.tcp_slot_table_entries = 128\r\n"
    "kernel.domainname = (none)\r\n"
    "dev.cdrom.info = \r\n"
)


def test_sysctl_a_output_with_crlf_tabs_and_permission_errors() -> None:
    parsed = parse_sysctl(SYSCTL_A)
    assert _pairs(parsed) == [
        (2, "net.core.rmem_default", "262144"),
        (3, "net.core.rmem_max", "4194304"),
        (4, "net.ipv4.tcp_rmem", "4096 87380 16777216"),
        (5, "net.ipv4.tcp_wmem", "4096 16384 16777216"),
        (7, "sunrpc.tcp_slot_table_entries", "128"),
        (8, "kernel.domainname", "(none)"),
        (9, "dev.cdrom.info", ""),
    ]
    # The command that printed the listing (behind its prompt) sets nothing and is understood.
    assert parsed.ignored == [6]


def test_sysctl_conf_comments_ignore_prefix_and_slash_names() -> None:
    parsed = parse_sysctl(
        "# /etc/sysctl.d/99-oracle.conf\n"
        "; kernel parameters for Oracle\n"
        "\n"
        "fs.aio-max-nr=1048576\n"
        "  -net.ipv4.ip_local_port_range =9000   65500\n"
        "net/core/wmem_max = 1048576\n"
        "kernel.sem 250 32000 100 128\n"
    )
    assert _pairs(parsed) == [
        (4, "fs.aio-max-nr", "1048576"),
        (5, "net.ipv4.ip_local_port_range", "9000 65500"),
        (6, "net.core.wmem_max", "1048576"),
    ]
    assert parsed.ignored == [7]


# --- nfso ---------------------------------------------------------------------------------------


def test_nfso_a_output() -> None:
    parsed = parse_nfso(
        "# nfso -a\n"
        "                  client_delegation = 1\n"
        "                 nfs_max_read_size = 65536\n"
        "                     nfs_rfc1323 = 1\n"
        "              nfs_socketsize = 600000\n"
        "         nfs_tcp_socketsize = 600000\n"
        "                   portcheck = 0\n"
        "Setting nfs_rfc1323 to 1\n"
        '  nfs_use_reserved_ports = "1"\n'
    )
    assert _pairs(parsed) == [
        (2, "client_delegation", "1"),
        (3, "nfs_max_read_size", "65536"),
        (4, "nfs_rfc1323", "1"),
        (5, "nfs_socketsize", "600000"),
        (6, "nfs_tcp_socketsize", "600000"),
        (7, "portcheck", "0"),
        (9, "nfs_use_reserved_ports", "1"),
    ]
    assert parsed.ignored == [8]


def test_nfso_and_no_commands_as_documents_print_them() -> None:
    """Oracle's AIX guides print ``# /usr/sbin/no -p -o sb_max=524288`` (corpus case
    unx-aix-ora18c-dnfs-no-sbmax-2018): the "#" of a root session is a prompt, the command's path
    and flags are dropped, and a command that only shows a value sets nothing."""
    parsed = parse_no("# /usr/sbin/no -o sb_max\n# /usr/sbin/no -p -o sb_max=524288\n")
    assert _pairs(parsed) == [(2, "sb_max", "524288")]
    assert parsed.ignored == []
    prompts = parse_nfso(
        "root@p750:/# sudo /usr/sbin/nfso -o nfs_rfc1323=1\n[root@aix ~]# nfso -p -o portcheck=0\n"
    )
    assert _pairs(prompts) == [(1, "nfs_rfc1323", "1"), (2, "portcheck", "0")]
    # In a script where some commands run, a "#" line is commented out.
    script = parse_no("no -p -o rfc1323=1\n# no -p -o sb_max=1048576\n")
    assert _pairs(script) == [(1, "rfc1323", "1")]
    output = parse_no("           rfc1323 = 1\n            sb_max = 1048576\n")
    assert _pairs(output) == [(1, "rfc1323", "1"), (2, "sb_max", "1048576")]


# --- /etc/system --------------------------------------------------------------------------------


def test_etc_system_set_lines_comments_and_directives() -> None:
    parsed = parse_etc_system(
        '*ident\t"@(#)system\t1.18\t97/06/27 SMI" /* SVR4 1.5 */\r\n'
        "*\r\n"
        "* NFS tuning for Oracle\r\n"
        "set nfs:nfs3_max_transfer_size = 1048576\r\n"
        "set nfs:nfs3_bsize=0x100000\r\n"
        "  set rpcmod:clnt_max_conns = 8\r\n"
        "# comment\r\n"
        "set maxusers=2048\r\n"
        "forceload: drv/vxio\r\n"
        "set noexec_user_stack | 1\r\n"
        'set md:mirrored_root_flag = "1"\r\n'
    )
    assert _pairs(parsed) == [
        (4, "nfs:nfs3_max_transfer_size", "1048576"),
        (5, "nfs:nfs3_bsize", "0x100000"),
        (6, "rpcmod:clnt_max_conns", "8"),
        (8, "maxusers", "2048"),
        (11, "md:mirrored_root_flag", "1"),
    ]
    assert parsed.ignored == [9, 10]


# --- ndd / ipadm --------------------------------------------------------------------------------


def test_ndd_get_session_and_set_script() -> None:
    parsed = parse_ndd(
        "# ndd -get /dev/tcp tcp_max_buf\n"
        "1048576\n"
        "# ndd /dev/tcp tcp_cwnd_max\n"
        "1048576\n"
        "bash-3.2# /usr/sbin/ndd -get /dev/tcp tcp_extra_priv_ports\n"
        "2049\n"
        "4045\n"
        "bash-3.2# ndd -get /dev/tcp tcp_recv_hiwat\n"
        "bash-3.2# uname -r\n"
        "5.10\n"
        "ndd -set /dev/tcp tcp_xmit_hiwat 65536\n"
        "/usr/sbin/ndd -set /dev/tcp tcp_recv_hiwat 65536\n"
        "#ndd -set /dev/tcp tcp_conn_req_max_q 16384\n"
        "ndd -set /dev/tcp\n"
    )
    assert _pairs(parsed) == [
        (1, "tcp_max_buf", "1048576"),
        (3, "tcp_cwnd_max", "1048576"),
        (5, "tcp_extra_priv_ports", "2049 4045"),
        (11, "tcp_xmit_hiwat", "65536"),
        (12, "tcp_recv_hiwat", "65536"),
    ]
    assert parsed.ignored == [8, 9, 10, 14]


def test_a_root_session_printed_in_a_document_is_read_with_its_sets() -> None:
    """Oracle's installation guides print each command after a "# " root prompt and, in places,
    a typeset dash for the flag's hyphen (corpus case unx-sol10-ora18c-dnfs-ndd-2019): where
    every command of the paste has "# " before it, "#" is the prompt, not a comment."""
    parsed = parse_ndd(
        "# ndd \u2013get /dev/tcp tcp_max_buf\n"
        "# ndd -set /dev/tcp tcp_max_buf 1056768\n"
        "# ndd -set /dev/tcp tcp_xmit_hiwat 1056768\n"
    )
    assert _pairs(parsed) == [
        (2, "tcp_max_buf", "1056768"),
        (3, "tcp_xmit_hiwat", "1056768"),
    ]
    assert parsed.ignored == [1]  # a get whose value the paste does not show
    ipadm = parse_ndd(
        "# ipadm show-prop -p max_buf tcp\n"
        "# ipadm set-prop -p max_buf=1048576 tcp\n"
        "# ipadm set-prop -p send_buf=1056768 tcp\n"
    )
    assert _pairs(ipadm) == [(2, "max_buf", "1048576"), (3, "send_buf", "1056768")]
    # In a script where some commands run, a "#" line is commented out.
    script = parse_ndd(
        "ndd -set /dev/tcp tcp_max_buf 1056768\n# ndd -set /dev/tcp tcp_xmit_hiwat 1056768\n"
    )
    assert _pairs(script) == [(1, "tcp_max_buf", "1056768")]


def test_ipadm_show_prop_table_and_set_prop() -> None:
    parsed = parse_ndd(
        "root@sol11:~# ipadm show-prop -p max_buf,_cwnd_max,send_buf tcp\r\n"
        "PROTO PROPERTY              PERM CURRENT      PERSISTENT   DEFAULT      POSSIBLE\r\n"
        "tcp   max_buf               rw   4194304      4194304      1048576      128000-1073741824"
        "\r\n"
        "tcp   _cwnd_max             rw   1048576      --           1048576      128-1073741824\r\n"
        "tcp   send_buf              rw   1048576      1048576      128000       4096-4194304\r\n"
        "root@sol11:~# ipadm set-prop -t -p recv_buf=1048576 tcp\r\n"
        "garbage\r\n"
    )
    assert _pairs(parsed) == [
        (3, "max_buf", "4194304"),
        (4, "_cwnd_max", "1048576"),
        (5, "send_buf", "1048576"),
        (6, "recv_buf", "1048576"),
    ]
    assert parsed.ignored == [7]


def test_ipadm_show_ifprop_uses_property_and_current_columns() -> None:
    parsed = parse_ndd(
        "IFNAME PROPERTY        PROTO PERM CURRENT    PERSISTENT DEFAULT    POSSIBLE\n"
        "net0   mtu             ipv4  rw   9000       9000       1500       68-9000\n"
        "net0   mtu\n"
    )
    assert _pairs(parsed) == [(2, "mtu", "9000")]
    assert parsed.ignored == [3]


# --- show parameter -----------------------------------------------------------------------------


SHOW_PARAMETER = (
    "SQL> show parameter\n"
    "\n"
    "NAME                                 TYPE        VALUE\n"
    "------------------------------------ ----------- ------------------------------\n"
    "control_files                        string      /u01/app/oracle/oradata/ORCL/c\n"
    "                                                 ontrol01.ctl, /u01/app/oracle/\n"
    "                                                 oradata/ORCL/control02.ctl\n"
    "db_file_multiblock_read_count        integer     128\n"
    "filesystemio_options                 string      SETALL\n"
    "db_recovery_file_dest                string\n"
    "db_recovery_file_dest_size           big integer 4G\n"
    "DISK_ASYNCH_IO                       boolean     TRUE\n"
    "optimizer_adaptive_plans_with_a_long_name\n"
    "                                     boolean     FALSE\n"
    "_this_hidden_parameter_name_is_36_ch string      on\n"
    "ars\n"
    'SP2-0158: unknown SHOW option beginning with "parmeter"\n'
    "log_archive_dest_1                   string      LOCATION=/u03/arch MANDATORY\n"
)


def test_show_parameter_wrapped_values_and_names() -> None:
    parsed = parse_show_parameter(SHOW_PARAMETER)
    assert _pairs(parsed) == [
        (
            5,
            "control_files",
            "/u01/app/oracle/oradata/ORCL/control01.ctl, "
            "/u01/app/oracle/oradata/ORCL/control02.ctl",
        ),
        (8, "db_file_multiblock_read_count", "128"),
        (9, "filesystemio_options", "SETALL"),
        (10, "db_recovery_file_dest", ""),
        (11, "db_recovery_file_dest_size", "4G"),
        (12, "disk_asynch_io", "TRUE"),
        (13, "optimizer_adaptive_plans_with_a_long_name", "FALSE"),
        (15, "_this_hidden_parameter_name_is_36_chars", "on"),
        (18, "log_archive_dest_1", "LOCATION=/u03/arch MANDATORY"),
    ]
    assert parsed.ignored == [17]


def test_show_parameter_crlf_and_tabs_without_layout() -> None:
    parsed = parse_show_parameter(
        "NAME\tTYPE\tVALUE\r\n"
        "filesystemio_options\tstring\tsetall\r\n"
        "control_files  string  /u02/a.ctl, /u03/b.ctl\r\n"
        "lonely_name_without_type\r\n"
        "db_block_size integer 8192\r\n"
    )
    assert _pairs(parsed) == [
        (2, "filesystemio_options", "setall"),
        (3, "control_files", "/u02/a.ctl, /u03/b.ctl"),
        (5, "db_block_size", "8192"),
    ]
    assert parsed.ignored == [4]


def test_show_parameter_word_wrapped_value_gets_its_space_back() -> None:
    parsed = parse_show_parameter(
        "NAME                                 TYPE        VALUE\n"
        "------------------------------------ ----------- ------------------------------\n"
        "control_files                        string      /u02/oradata/ORCL/ctl01.ctl,\n"
        "                                                 /u03/oradata/ORCL/ctl02.ctl\n"
    )
    assert _pairs(parsed) == [
        (3, "control_files", "/u02/oradata/ORCL/ctl01.ctl, /u03/oradata/ORCL/ctl02.ctl")
    ]
    assert parsed.ignored == []


def test_show_parameter_pasted_with_a_margin() -> None:
    indented = "".join(f"    {line}\n" for line in SHOW_PARAMETER.splitlines()[2:11])
    parsed = parse_show_parameter(indented)
    assert [name for _, name, _ in _pairs(parsed)] == [
        "control_files",
        "db_file_multiblock_read_count",
        "filesystemio_options",
        "db_recovery_file_dest",
        "db_recovery_file_dest_size",
    ]
    assert parsed.items[0].value.endswith("ORCL/control02.ctl")
    assert parsed.ignored == []


# --- spfile / pfile -----------------------------------------------------------------------------


SPFILE = (
    "C\x00\x00\x00\x02\n"
    "ORCL1.__db_cache_size=1124073472\n"
    "ORCL2.__db_cache_size=1140850688\n"
    "*.audit_file_dest='/u01/app/oracle/admin/ORCL/adump'\n"
    "*.compatible='19.0.0'\n"
    "*.control_files='/u02/oradata/ORCL/control01.ctl',\n"
    "'/u03/oradata/ORCL/control02.ctl'#Restore Controlfile\n"
    "*.db_block_size=8192\n"
    "ORCL1.instance_number=1\n"
    "ORCL2.instance_number=2\n"
    "*.filesystemio_options='setall'\n"
    "ORCL1.filesystemio_options='none'\n"
    "*.\"_fix_control\"='13836796:ON'\n"
    "db_name=ORCL  # plain pfile line\n"
    "# a comment\n"
)


def test_spfile_scoped_keeps_every_sid() -> None:
    parsed = parse_spfile_scoped(SPFILE)
    assert [(p.line, p.sid, p.name, p.value) for p in parsed.items] == [
        (2, "ORCL1", "__db_cache_size", "1124073472"),
        (3, "ORCL2", "__db_cache_size", "1140850688"),
        (4, "*", "audit_file_dest", "/u01/app/oracle/admin/ORCL/adump"),
        (5, "*", "compatible", "19.0.0"),
        (
            6,
            "*",
            "control_files",
            "/u02/oradata/ORCL/control01.ctl, /u03/oradata/ORCL/control02.ctl",
        ),
        (8, "*", "db_block_size", "8192"),
        (9, "ORCL1", "instance_number", "1"),
        (10, "ORCL2", "instance_number", "2"),
        (11, "*", "filesystemio_options", "setall"),
        (12, "ORCL1", "filesystemio_options", "none"),
        (13, "*", "_fix_control", "13836796:ON"),
        (14, "*", "db_name", "ORCL"),
    ]
    assert parsed.ignored == [1]
    assert isinstance(parsed.items[0], ScopedParameter)


def test_spfile_text_prefers_star_then_first_sid() -> None:
    parsed = parse_spfile_text(SPFILE)
    assert [(p.line, p.name, p.value) for p in parsed.items] == [
        (2, "__db_cache_size", "1124073472"),
        (4, "audit_file_dest", "/u01/app/oracle/admin/ORCL/adump"),
        (5, "compatible", "19.0.0"),
        (6, "control_files", "/u02/oradata/ORCL/control01.ctl, /u03/oradata/ORCL/control02.ctl"),
        (8, "db_block_size", "8192"),
        (9, "instance_number", "1"),
        (11, "filesystemio_options", "setall"),
        (13, "_fix_control", "13836796:ON"),
        (14, "db_name", "ORCL"),
    ]
    assert parsed.ignored == [1]


def test_spfile_value_continued_on_a_line_starting_with_a_comma() -> None:
    parsed = parse_spfile_text(
        "*.control_files='/u02/a.ctl'\r\n,'/u03/b.ctl'\r\n*.processes=300\r\n"
    )
    assert _pairs(parsed) == [
        (1, "control_files", "/u02/a.ctl, /u03/b.ctl"),
        (3, "processes", "300"),
    ]


# --- v$dnfs_servers -----------------------------------------------------------------------------


def test_dnfs_servers_single_line_layout() -> None:
    parsed = parse_dnfs_servers(
        "SQL> select * from v$dnfs_servers;\n"
        "\n"
        "        ID SVRNAME              DIRNAME                           MNTPORT    NFSPORT"
        " NFSVERSION      WTMAX      RTMAX     CON_ID\n"
        "---------- -------------------- ------------------------------ ---------- ----------"
        " ---------- ---------- ---------- ----------\n"
        "         1 filer01              /vol/orcl_data                        635       2049"
        " NFSv3.0       1048576    1048576          0\n"
        "         2 filer01              /vol/orcl_redo                        635       2049"
        " NFSv3.0        65536      65536          0\n"
        "\n"
        "2 rows selected.\n"
        "\n"
        "Elapsed: 00:00:00.01\n"
    )
    assert parsed.items == [
        DnfsServer(5, "filer01", "/vol/orcl_data", "NFSv3.0", 1048576, 1048576),
        DnfsServer(6, "filer01", "/vol/orcl_redo", "NFSv3.0", 65536, 65536),
    ]
    assert parsed.ignored == []


def test_dnfs_servers_11g_without_nfsversion_and_tabs_lost() -> None:
    parsed = parse_dnfs_servers(
        "ID SVRNAME DIRNAME MNTPORT NFSPORT WTMAX RTMAX\r\n"
        "-- ------- ------- ------- ------- ----- -----\r\n"
        "1\tnas1\t/export/oradata\t1001\t2049\t32768\t32768\r\n"
        "garbage that is not a row\r\n"
        "no rows selected\r\n"
    )
    assert parsed.items == [DnfsServer(3, "nas1", "/export/oradata", None, 32768, 32768)]
    assert parsed.ignored == [4]


def test_dnfs_servers_record_wrapped_over_several_lines() -> None:
    parsed = parse_dnfs_servers(
        "        ID\n"
        "----------\n"
        "SVRNAME\n"
        "----------------------------------------\n"
        "DIRNAME\n"
        "----------------------------------------\n"
        "   MNTPORT    NFSPORT NFSVERSION      WTMAX      RTMAX\n"
        "---------- ---------- ---------- ---------- ----------\n"
        "         1\n"
        "filer01.example.com\n"
        "/vol/orcl_data\n"
        "       635       2049 NFSv4.1       262144     262144\n"
        "\n"
        "         2\n"
        "filer02.example.com\n"
        "/vol/orcl_arch\n"
        "       635       2049 NFSv4.1       262144     262144\n"
        "\n"
        "2 rows selected.\n"
    )
    assert parsed.items == [
        DnfsServer(9, "filer01.example.com", "/vol/orcl_data", "NFSv4.1", 262144, 262144),
        DnfsServer(14, "filer02.example.com", "/vol/orcl_arch", "NFSv4.1", 262144, 262144),
    ]
    assert parsed.ignored == []


def test_dnfs_rows_without_header_are_ignored() -> None:
    parsed = parse_dnfs_servers("1 filer01 /vol/d 635 2049 NFSv3.0 1048576 1048576\n")
    assert parsed.items == []
    assert parsed.ignored == [1]


def test_dnfs_rows_without_header_are_read_by_the_columns_the_query_names() -> None:
    """A blog's copy of ``SELECT svrname, dirname FROM v$dnfs_servers`` lost the header but keeps
    the query (corpus case pra-oviwan-11g-dnfs-servers-2008): its column list reads the rows.
    ``SELECT *`` gives no order, so rows without a header under it stay unread."""
    parsed = parse_dnfs_servers(
        "SQL> SELECT svrname, dirname FROM v$dnfs_servers;\n\nfilername  /vol/nfs_data01/q\n"
    )
    assert parsed.items == [DnfsServer(3, "filername", "/vol/nfs_data01/q", None, None, None)]
    star = parse_dnfs_servers("SQL> select * from v$dnfs_servers;\n1 filer01 /vol/d 635\n")
    assert (star.items, star.ignored) == ([], [2])
    odd = parse_dnfs_servers("select svrname, dirname from v$dnfs_servers;\nonly-one-cell\n")
    assert (odd.items, odd.ignored) == ([], [2])


# --- 7-mode options nfs -------------------------------------------------------------------------


def test_options_nfs_output_with_annotations() -> None:
    parsed = parse_options_nfs(
        "filer01> options nfs\r\n"
        "nfs.acache.persistence.enabled on\r\n"
        "nfs.kerberos.principal\r\n"
        "nfs.tcp.enable               on\r\n"
        "nfs.tcp.recvwindowsize       65940\r\n"
        "nfs.tcp.xfersize             65536      (value might be overwritten in takeover)\r\n"
        "nfs.v3.enable                on         (same value required in local+partner)\r\n"
        "nfs.v4.id.domain\t\texample.com\r\n"
        "Wed Jan  1 00:00:00 GMT [filer01: nfsd:info]: something\r\n"
        "options nfs.tcp.xfersize 65536\r\n"
    )
    assert _pairs(parsed) == [
        (2, "nfs.acache.persistence.enabled", "on"),
        (3, "nfs.kerberos.principal", ""),
        (4, "nfs.tcp.enable", "on"),
        (5, "nfs.tcp.recvwindowsize", "65940"),
        (6, "nfs.tcp.xfersize", "65536"),
        (7, "nfs.v3.enable", "on"),
        (8, "nfs.v4.id.domain", "example.com"),
        (10, "nfs.tcp.xfersize", "65536"),
    ]
    assert parsed.ignored == [9]


# --- clustered ONTAP ----------------------------------------------------------------------------


def _records(parsed: Parsed[OntapRecord]) -> list[tuple[int, dict[str, str], dict[str, str]]]:
    return [(r.line, r.keys, r.fields) for r in parsed.items]


def test_ontap_volume_show_fields() -> None:
    parsed = parse_ontap_fields(
        "cluster1::> volume show -fields size,space-guarantee,snapshot-policy,atime-update\r\n"
        "vserver volume     size  space-guarantee snapshot-policy atime-update\r\n"
        "------- ---------- ----- --------------- --------------- ------------\r\n"
        "svm1    orcl_data  2TB   none            none            false\r\n"
        "svm1    orcl_redo  200GB volume          -               true\r\n"
        "2 entries were displayed.\r\n"
        "\r\n"
        "cluster1::>\r\n"
    )
    assert _records(parsed) == [
        (
            4,
            {"vserver": "svm1", "volume": "orcl_data"},
            {
                "size": "2TB",
                "space-guarantee": "none",
                "snapshot-policy": "none",
                "atime-update": "false",
            },
        ),
        (
            5,
            {"vserver": "svm1", "volume": "orcl_redo"},
            {
                "size": "200GB",
                "space-guarantee": "volume",
                "snapshot-policy": "-",
                "atime-update": "true",
            },
        ),
    ]
    assert parsed.ignored == []


def test_ontap_rows_wrapped_onto_continuation_lines() -> None:
    parsed = parse_ontap_fields(
        "vserver protocols              v3-tcp-max-read-size v3-tcp-max-write-size\n"
        "------- ---------------------- -------------------- ---------------------\n"
        "svm1    nfs,cifs,fcache,iscsi, 1048576              1048576\n"
        "        fcp,nvme\n"
        "svm2    nfs                    65536                65536\n"
        "2 entries were displayed.\n"
    )
    assert _records(parsed) == [
        (
            3,
            {"vserver": "svm1"},
            {
                "protocols": "nfs,cifs,fcache,iscsi,fcp,nvme",
                "v3-tcp-max-read-size": "1048576",
                "v3-tcp-max-write-size": "1048576",
            },
        ),
        (
            5,
            {"vserver": "svm2"},
            {
                "protocols": "nfs",
                "v3-tcp-max-read-size": "65536",
                "v3-tcp-max-write-size": "65536",
            },
        ),
    ]


def test_ontap_network_port_mtu_and_collapsed_spacing() -> None:
    parsed = parse_ontap_fields(
        "node      port mtu\n"
        "--------- ---- ----\n"
        "cluster1-01 e0c 9000\n"
        "cluster1-02 e0c  1500\n"
        "cluster1-02 e0d 1500 extra\n"
        "There are no entries matching your query.\n"
    )
    assert _records(parsed) == [
        (3, {"node": "cluster1-01", "port": "e0c"}, {"mtu": "9000"}),
        (4, {"node": "cluster1-02", "port": "e0c"}, {"mtu": "1500"}),
    ]
    assert parsed.ignored == [5]


def test_ontap_table_pasted_with_a_margin_and_tabs() -> None:
    parsed = parse_ontap_fields(
        "\tvserver volume\tjunction-path\n"
        "\t------- ------ -------------\n"
        "\tsvm1    data   /oradata\n"
    )
    assert _records(parsed) == [
        (3, {"vserver": "svm1", "volume": "data"}, {"junction-path": "/oradata"})
    ]
    assert parsed.ignored == []


def test_ontap_instance_list_form() -> None:
    parsed = parse_ontap_fields(
        "cluster1::> vserver nfs show -vserver svm1\n"
        "\n"
        "                            Vserver: svm1\n"
        "                 General NFS Access: true\n"
        "                             NFS v3: enabled\n"
        "                           NFS v4.0: disabled\n"
        "  NFSv3 TCP Maximum Read Size (bytes): 1048576\n"
        "                            Comment: tuned for Oracle dNFS,\n"
        "                                     see change 4711\n"
        "                        Empty Field:\n"
        "garbage\n"
        "\n"
        "                            Vserver: svm2\n"
        "                 General NFS Access: false\n"
    )
    assert _records(parsed) == [
        (
            3,
            {},
            {
                "Vserver": "svm1",
                "General NFS Access": "true",
                "NFS v3": "enabled",
                "NFS v4.0": "disabled",
                "NFSv3 TCP Maximum Read Size (bytes)": "1048576",
                "Comment": "tuned for Oracle dNFS, see change 4711",
                "Empty Field": "",
            },
        ),
        (13, {}, {"Vserver": "svm2", "General NFS Access": "false"}),
    ]
    assert parsed.ignored == [11]


# --- never raise --------------------------------------------------------------------------------


PARSERS: list[Callable[[str], object]] = [
    parse_sysctl,
    parse_nfso,
    parse_no,
    parse_etc_system,
    parse_ndd,
    parse_show_parameter,
    parse_spfile_text,
    parse_spfile_scoped,
    parse_dnfs_servers,
    parse_options_nfs,
    parse_ontap_fields,
    detect_kind,
]

FRAGMENTS = [
    "NAME TYPE VALUE",
    "-" * 36 + " " + "-" * 11 + " " + "-" * 30,
    "---------- ----",
    "   ",
    "\t",
    "*.",
    "ORCL.x=',",
    "'",
    ",",
    "#",
    "* ",
    "set nfs:",
    "set a=",
    "ndd -get /dev/tcp ",
    "ndd -set /dev/tcp x",
    "PROTO PROPERTY PERM CURRENT",
    "vserver volume",
    "        ID SVRNAME DIRNAME",
    "2 entries were displayed.",
    "Vserver: ",
    "nfs.tcp.xfersize ",
    "(x)",
    "=",
    "net.ipv4.x = ",
    "SQL> ",
    "\x00\xff\ud800",
    "\r",
    "\r\n",
    "\n",
    "\u2028",
    "integer",
    "big integer",
    "ipadm set-prop -p a=b",
    "options ",
    "cluster::> ",
]


def _hostile_corpus() -> list[str]:
    rng = random.Random(0)
    corpus = ["", "\n", "\r\n" * 3, "x" * 200_000, "-" * 200_000, " =" * 50_000]
    for _ in range(200):
        pieces = [
            rng.choice(FRAGMENTS)
            if rng.random() < 0.7
            else "".join(chr(rng.randrange(0, 0x3000)) for _ in range(rng.randrange(0, 12)))
            for _ in range(rng.randrange(1, 30))
        ]
        corpus.append(rng.choice(["", " ", "\n", "\r\n", "\t"]).join(pieces))
    return corpus


def test_nothing_raises_on_a_fixed_hostile_corpus() -> None:
    for text in _hostile_corpus():
        for parse in PARSERS:
            result = parse(text)
            if isinstance(result, Parsed):
                lines = len(text.splitlines())
                assert all(1 <= n <= lines for n in result.ignored), (parse, text[:80])


@settings(max_examples=150, suppress_health_check=[HealthCheck.too_slow], deadline=None)
@given(
    st.lists(st.one_of(st.sampled_from(FRAGMENTS), st.text(max_size=20)), max_size=40).map(
        "\n".join
    )
    | st.text()
)
@example("\x00" * 10)
@example("NAME TYPE VALUE\n----- ---- -----\n      integer\n  x")
def test_nothing_raises_on_arbitrary_text(text: str) -> None:
    lines = len(text.splitlines())
    for parse in PARSERS:
        result = parse(text)
        if isinstance(result, Parsed):
            assert all(1 <= n <= lines for n in result.ignored)
            assert all(1 <= getattr(item, "line", 1) <= lines for item in result.items)
