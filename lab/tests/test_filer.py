import pytest

from nasplan_lab.filer import ONTAP_DEFAULT_XFER, ExportRule, filer_setup, ontap9_setup

SUBNETS = {"storage-subnet-1": "192.168.50.0/24", "storage-subnet-2": "192.168.51.0/24"}

COMMANDS = """
# comment lines are skipped
vserver export-policy rule create -vserver <svm> -policyname default -clientmatch <storage-subnet-1> -protocol nfs -rorule sys -rwrule never -superuser sys
vserver export-policy create -vserver <svm> -policyname prod_oracle
vserver export-policy rule create -vserver <svm> -policyname prod_oracle -clientmatch <storage-subnet-1> -protocol nfs -rorule sys -rwrule sys -superuser sys
vserver export-policy rule create -vserver <svm> -policyname prod_oracle -clientmatch 192.168.51.11 -protocol nfs -rorule sys -rwrule sys -superuser none
volume create -vserver <svm> -volume prod_data -aggregate <aggregate> -size <size> -junction-path /prod_data -security-style unix -policy prod_oracle
network port broadcast-domain modify -broadcast-domain <broadcast-domain> -mtu 9000
vserver nfs modify -vserver <svm> -tcp-max-xfer-size 262144
"""


def test_export_rules_follow_the_policy_of_each_volume() -> None:
    setup = ontap9_setup(COMMANDS, SUBNETS)
    assert setup.exports == {
        "/prod_data": [
            ExportRule("192.168.50.0/24", read_write=True, root=True),
            ExportRule("192.168.51.11", read_write=True, root=False),
        ]
    }
    assert setup.exports_text() == (
        "/prod_data 192.168.50.0/24(rw,sync,no_subtree_check,no_root_squash) "
        "192.168.51.11(rw,sync,no_subtree_check,root_squash)\n"
    )
    assert setup.filled == ["<storage-subnet-1> = 192.168.50.0/24"] * 2


def test_server_settings_default_to_ontap_when_the_bundle_leaves_them_out() -> None:
    setup = ontap9_setup(COMMANDS, SUBNETS)
    assert (setup.mtu, setup.max_xfer) == (9000, 262144)
    bare = "\n".join(
        line for line in COMMANDS.splitlines() if "-mtu" not in line and "xfer" not in line
    )
    setup = ontap9_setup(bare, SUBNETS)
    assert (setup.mtu, setup.max_xfer) == (1500, ONTAP_DEFAULT_XFER)


def test_a_host_name_stays_a_name_and_a_volume_without_rules_exports_to_nobody() -> None:
    commands = (
        "vserver export-policy rule create -policyname p -clientmatch db01 -rwrule sys -superuser sys\n"
        "volume create -volume a -junction-path /a -policy p\n"
        "volume create -volume b -junction-path /b -policy other\n"
    )
    setup = ontap9_setup(commands, SUBNETS)
    assert setup.exports["/a"] == [ExportRule("db01", read_write=True, root=True)]
    assert "# /b: no client may mount it" in setup.exports_text()


@pytest.mark.parametrize(
    ("commands", "message"),
    [
        (
            "vserver export-policy rule create -policyname p -clientmatch <nas-subnet>\n",
            "<nas-subnet>",
        ),
        (
            "vserver export-policy rule create -policyname p -clientmatch 'a b(rw)'\n",
            "not an address",
        ),
        ("vserver nfs modify -tcp-max-xfer-size 65536\n", "no volume"),
    ],
)
def test_what_the_lab_cannot_stand_in_for_is_refused(commands: str, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        ontap9_setup(commands, SUBNETS)


SEVEN_MODE = """
vol create orcl_data <aggregate> <size>
exportfs -p rw=<storage-subnet-1>,root=<storage-subnet-1> /vol/orcl_data
exportfs -p rw=192.168.51.11:db11g,root=192.168.51.11 /vol/orcl_arch
options nfs.tcp.xfersize 65536
ifconfig e1a mtusize 9000
"""


def test_seven_mode_exports_transfer_size_and_mtu() -> None:
    setup = filer_setup(SEVEN_MODE, SUBNETS)
    assert setup.exports == {
        "/vol/orcl_data": [ExportRule("192.168.50.0/24", read_write=True, root=True)],
        "/vol/orcl_arch": [
            ExportRule("192.168.51.11", read_write=True, root=True),
            ExportRule("db11g", read_write=True, root=False),
        ],
    }
    assert (setup.mtu, setup.max_xfer) == (9000, 65536)


def test_a_filer_file_the_lab_cannot_stand_in_for_is_named() -> None:
    with pytest.raises(ValueError, match="clustered ONTAP and 7-mode"):
        filer_setup("Create these shares in the service's portal\n", SUBNETS)
