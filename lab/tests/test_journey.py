from pathlib import Path
from typing import Any

from nasplan_lab.journey import adapt, not_proven, runbook_script_order


def test_the_scripts_run_in_the_order_the_runbook_gives() -> None:
    runbook = (
        "host/network.sh\nhost/network.sh --apply\n... host/tuning.sh --apply ...\n"
        "host/network.sh --apply\nhost/mounts.sh --apply\nrollback/host_rollback.sh --apply\n"
    )
    assert runbook_script_order(runbook) == ["host/network.sh", "host/tuning.sh", "host/mounts.sh"]


def test_the_platform_gets_the_lab_names_and_addresses_and_says_so() -> None:
    platform: dict[str, Any] = {
        "host": {"hostname": "rac01", "nic_interface": "ens1f0"},
        "network": {"nic_count": 2},
        "oracle": {"rac": True, "rac_nodes": 4},
        "layout": {"filer_host": "svm-ora01"},
        "handover": {
            "paths": [
                {
                    "host_interface": "ens1f0",
                    "host_address": "10.0.0.5/24",
                    "filer_address": "10.0.0.9",
                },
                {"host_interface": "ens1f1", "host_address": "10.0.1.5/24"},
            ],
            "client_subnet": "10.0.0.0/16",
        },
    }
    run = adapt("x", platform)
    assert run.nodes == ["rac01", "rac01-b"]  # two nodes, whatever the node count
    assert run.platform["host"]["nic_interface"] == "eth0"
    assert run.platform["layout"]["filer_host"] == "192.168.50.10"
    assert run.platform["handover"]["paths"] == [
        {
            "host_interface": "eth0",
            "host_address": "192.168.50.11/24",
            "filer_address": "192.168.50.10",
        },
        {"host_interface": "eth1", "host_address": "192.168.51.11/24"},
    ]
    assert run.platform["handover"]["client_subnet"] == "192.168.50.0/24"
    assert platform["host"]["nic_interface"] == "ens1f0"  # the caller's platform is untouched
    assert len(run.adapted) == 3


def test_what_the_journey_does_not_run_is_named(tmp_path: Path) -> None:
    for name in ("oracle/init.ora.add", "host/network.sh", "ansible/site.yml", "host/mounts.sh"):
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text("x")
    scripts = not_proven(tmp_path, "scripts")
    assert scripts[0].startswith("oracle/init.ora.add, verify/verify_oracle.sql")
    assert any("ifcfg" in line for line in scripts)
    assert any(line.startswith("ansible/site.yml") for line in scripts)
    assert not any(line.startswith("ansible/") for line in not_proven(tmp_path, "ansible"))
