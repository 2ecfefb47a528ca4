from __future__ import annotations

import re

from nasplan.engine.planner import make_plan
from nasplan.knowledge.base import KnowledgeBase
from tests.conftest import TODAY, preset_platform


def test_oracle_home_mount_never_forcedirectio_on_solaris(kb: KnowledgeBase) -> None:
    plan = make_plan(kb, preset_platform(kb, "tr3322-lab"), TODAY)
    home = next(m for m in plan.mounts if m.role == "oracle_home")
    redo = next(m for m in plan.mounts if m.role == "redo")
    assert "forcedirectio" not in home.options
    assert "forcedirectio" in redo.options
    assert home.volume != redo.volume


def test_shared_volume_splits_mounts_when_options_differ(kb: KnowledgeBase) -> None:
    platform = preset_platform(
        kb, "tr3322-lab", {"oracle": {"bits": 32}, "layout": {"volumes": "shared"}}
    )
    plan = make_plan(kb, platform, TODAY)
    shared = [m for m in plan.mounts if m.volume == "prod_data"]
    assert len(shared) == 2
    data = next(m for m in shared if "data" in m.serves)
    logs = next(m for m in shared if "redo" in m.serves)
    assert "llock" in data.options and "forcedirectio" not in data.options
    assert "forcedirectio" in logs.options and "llock" not in logs.options
    assert data.export == "filer01:/vol/prod_data/oradata"
    assert logs.export == "filer01:/vol/prod_data/oralog"
    assert logs.serves == ["redo", "control"]


def test_shared_volume_with_same_options_is_one_mount(kb: KnowledgeBase) -> None:
    platform = preset_platform(kb, "tr3322-lab", {"layout": {"volumes": "shared"}})
    plan = make_plan(kb, platform, TODAY)
    shared = [m for m in plan.mounts if m.volume == "prod_data"]
    assert len(shared) == 1
    assert shared[0].serves == ["data", "redo", "control"]
    assert shared[0].export == "filer01:/vol/prod_data"


def test_rac_19c_gets_a_crs_mount_and_12cr2_does_not(kb: KnowledgeBase) -> None:
    plan_19 = make_plan(kb, preset_platform(kb, "current-rac"), TODAY)
    assert any(m.role == "crs" for m in plan_19.mounts)
    plan_122 = make_plan(
        kb, preset_platform(kb, "current-rac", {"oracle": {"version": "12.2.0.1"}}), TODAY
    )
    assert not any(m.role == "crs" for m in plan_122.mounts)


def test_transfer_size_capped_by_7mode_filer(kb: KnowledgeBase) -> None:
    platform = preset_platform(kb, "tr3496-lab", {"oracle": {"workload": "dss"}})
    plan = make_plan(kb, platform, TODAY)
    data = next(m for m in plan.mounts if m.role == "data")
    assert "rsize=65536" in data.options
    assert "MNT-TRANSFER-SIZE-CAPS" in data.option_rules["rsize=65536"]
    assert "MNT-RWSIZE-1M-DSS" in data.option_rules["rsize=65536"]


def test_aix_transfer_size_capped_by_client(kb: KnowledgeBase) -> None:
    plan = make_plan(
        kb, preset_platform(kb, "example-aix", {"filer": {"os_version": "9.14.1"}}), TODAY
    )
    data = next(m for m in plan.mounts if m.role == "data")
    assert "rsize=65536" in data.options
    assert any(
        f.rule == "MNT-TRANSFER-SIZE-CAPS" and "client OS" in f.message for f in plan.findings
    )


def test_conflict_finding_cites_both_sides(kb: KnowledgeBase) -> None:
    plan = make_plan(kb, preset_platform(kb, "current-linux-ontap"), TODAY)
    data = next(m for m in plan.mounts if m.role == "data")
    assert "actimeo=0" not in data.options
    finding = next(f for f in plan.findings if f.rule == "MNT-NO-ACTIMEO-SI")
    assert finding.severity == "warning"
    assert "LNX-MNT-ACTIMEO0-SI" in finding.related_rules
    assert "Sources disagree" in finding.message
    assert {"MNT-NO-ACTIMEO-SI", "LNX-MNT-ACTIMEO0-SI"} <= set(plan.rules)


def test_error_combinations_are_findings(kb: KnowledgeBase) -> None:
    plan = make_plan(kb, preset_platform(kb, "tr3322-lab", {"oracle": {"dnfs": True}}), TODAY)
    errors = [f for f in plan.findings if f.severity == "error"]
    assert [f.rule for f in errors] == ["DNFS-REQUIRES-11G"]
    plan = make_plan(kb, preset_platform(kb, "example-aix", {"host": {"arch": "x86_64"}}), TODAY)
    assert any(f.rule == "COMPAT-OS-ARCH" and f.severity == "error" for f in plan.findings)


# terraform-provider-azurerm validates an Azure NetApp Files volume path (the creation token the
# hosts mount) as a letter, then letters, digits and hyphens, 80 at most (validate/volume_path.go).
ANF_VOLUME_PATH = re.compile(r"^/[a-zA-Z][-\da-zA-Z]{0,79}$")


def test_anf_exports_are_volume_paths_the_service_accepts(kb: KnowledgeBase) -> None:
    plan = make_plan(kb, preset_platform(kb, "current-anf"), TODAY)
    assert plan.volumes
    for volume in plan.volumes:
        assert ANF_VOLUME_PATH.match(volume.export), volume.export
        assert volume.export == "/" + volume.name.replace("_", "-")
    for mount in plan.mounts:
        assert mount.export.split(":", 1)[1] in {v.export for v in plan.volumes}


def test_other_families_keep_the_volume_name_as_export(kb: KnowledgeBase) -> None:
    for preset in ("current-fsxn", "current-gcnv", "current-linux-ontap"):
        plan = make_plan(kb, preset_platform(kb, preset), TODAY)
        assert all(v.export.endswith(v.name) for v in plan.volumes), preset


def test_anf_export_of_a_db_name_with_an_underscore(kb: KnowledgeBase) -> None:
    platform = preset_platform(kb, "current-anf", {"layout": {"db_name": "MY_DB"}})
    plan = make_plan(kb, platform, TODAY)
    assert [v.export for v in plan.volumes] == ["/my-db-data", "/my-db-redo", "/my-db-arch"]
    assert all(ANF_VOLUME_PATH.match(v.export) for v in plan.volumes)
