"""A value the losing side of a declared disagreement advises (knowledge/conflicts.yaml) is
not wrong where the knowledge base rates that disagreement as information: the audit says so,
names both sides, and still shows the plan's line (issue 26: not every difference is a fault)."""

from __future__ import annotations

from nasplan.audit.compare import audit
from nasplan.domain.platform import Platform
from nasplan.knowledge.base import KnowledgeBase

# Oracle's pre-install values (LNX-ORACLE-PREINSTALL-NET) beside the plan's 8 MB ceilings
# (LNX-TCP-BUFFERS-8M): the conflict linux-socket-buffer-ceilings, rated info.
ORACLE_PREINSTALL = "net.core.rmem_max = 4194304\nnet.core.wmem_max = 1048576\n"


def _findings(kb: KnowledgeBase, text: str) -> dict[str, tuple[str, str, str]]:
    # Kernel NFS: the slides' 8 MB values are scoped to it (with Direct NFS, Oracle's own apply).
    current = Platform.model_validate(kb.presets["current-linux-ontap"].platform)
    platform = current.model_copy(
        update={"oracle": current.oracle.model_copy(update={"dnfs": False})}
    )
    report = audit(kb, platform, {"sysctl": text})
    return {
        f.about[0]: (f.severity, f.rule, f.message)
        for f in report.findings
        if f.about and f.about[0] in ("net.core.rmem_max", "net.core.wmem_max")
    }


def test_the_losing_sides_value_is_an_info_that_names_both_sides(kb: KnowledgeBase) -> None:
    found = _findings(kb, ORACLE_PREINSTALL)
    severity, rule, message = found["net.core.rmem_max"]
    assert (severity, rule) == ("info", "LNX-TCP-BUFFERS-8M")
    assert "LNX-ORACLE-PREINSTALL-NET" in message and "8388608" in message
    assert found["net.core.wmem_max"][0] == "info"


def test_any_other_value_is_still_a_warning(kb: KnowledgeBase) -> None:
    found = _findings(kb, "net.core.rmem_max = 2097152\nnet.core.wmem_max = 4194304\n")
    assert found["net.core.rmem_max"][0] == "warning"
    assert found["net.core.wmem_max"][0] == "warning"  # 4 MiB is the losing side's rmem, not wmem
