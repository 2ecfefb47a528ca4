"""One table of the kinds of paste (audit/kinds.py): what each kind is, served and used."""

from __future__ import annotations

from fastapi.testclient import TestClient

from nasplan.audit.compare import audit
from nasplan.audit.kinds import CHECKABLE_MECHANISMS, FILE_KINDS
from nasplan.audit.request import AuditInputs
from nasplan.domain.platform import EXAMPLE_PLATFORM, Platform
from nasplan.knowledge.base import KnowledgeBase


def test_the_catalog_serves_every_kind_with_its_name(client: TestClient) -> None:
    served = client.get("/api/v1/catalog").json()["file_kinds"]
    assert [(k["id"], k["label"]) for k in served] == [
        (kind, spec.label) for kind, spec in FILE_KINDS.items()
    ]


def test_the_request_schema_names_every_kind() -> None:
    described = AuditInputs.model_fields["files"].description or ""
    for kind, spec in FILE_KINDS.items():
        assert f"{kind} ({spec.label})" in described


def test_corrected_files_are_the_kinds_with_a_comment_marker(kb: KnowledgeBase) -> None:
    """A kind with a comment marker comes back corrected; a command output does not."""
    platform = Platform.model_validate(EXAMPLE_PLATFORM)
    report = audit(
        kb,
        platform,
        {
            "vfstab": "filer01:/vol/prod_data - /u02/oradata/PROD nfs - yes rw,hard\n",
            "mount": "filer01:/vol/prod_data on /u02/oradata/PROD type nfs (rw,hard)\n",
        },
    )
    assert FILE_KINDS["vfstab"].comment is not None and FILE_KINDS["mount"].comment is None
    assert set(report.corrected) == {"vfstab"}


def test_parameter_kinds_say_how_a_value_is_written() -> None:
    for kind, spec in FILE_KINDS.items():
        assert (spec.reads == "parameters") == (spec.fix_form is not None), kind
        if spec.reads == "parameters":
            assert len(spec.mechanisms) == 1, kind
    assert {"init_ora", "sysctl", "dnfs", "ontap7_vol_option"} <= CHECKABLE_MECHANISMS
