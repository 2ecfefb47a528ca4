"""Audits in worker processes: same answers as in the server's process, within limits."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from dataclasses import replace

import pytest

from nasplan.audit.pastes import Unrecognised
from nasplan.audit.report import AuditReport
from nasplan.audit.request import AuditInputs, Paste
from nasplan.audit.runner import AuditFailed, AuditRunner, Limits
from nasplan.domain.platform import EXAMPLE_PLATFORM, Platform
from nasplan.knowledge.base import KnowledgeBase
from nasplan.knowledge.resolve import CatalogError

PLATFORM = Platform.model_validate(EXAMPLE_PLATFORM)
VFSTAB = (
    "filer01:/vol/prod_data - /u02/oradata/PROD nfs - yes "
    "rw,bg,hard,intr,rsize=32768,wsize=32768,vers=3,proto=tcp,llock\n"
)
MEMORY = 1024 * 1024 * 1024


class SleepingInputs(AuditInputs):
    """Stands for a paste that takes long to check (the worker imports this module)."""

    def run(self, kb: KnowledgeBase, platform: Platform) -> AuditReport:
        time.sleep(60)
        raise AssertionError("not stopped")


class GreedyInputs(AuditInputs):
    """Stands for a paste whose audit needs more memory than a worker may have."""

    def run(self, kb: KnowledgeBase, platform: Platform) -> AuditReport:
        hog = bytearray(2 * MEMORY)
        raise AssertionError(f"allocated {len(hog)} bytes past the limit")


@pytest.fixture
def runner(kb: KnowledgeBase) -> Iterator[AuditRunner]:
    runner = AuditRunner(kb, Limits(workers=1, timeout_s=3.0, memory_bytes=MEMORY))
    yield runner
    runner.close()


def test_a_worker_answers_as_the_server_would(kb: KnowledgeBase, runner: AuditRunner) -> None:
    inputs = AuditInputs(files={"vfstab": VFSTAB})
    assert runner.run(inputs, PLATFORM) == inputs.run(kb, PLATFORM)


def test_an_unrecognised_paste_names_its_index(runner: AuditRunner) -> None:
    inputs = AuditInputs(
        pastes=[Paste(name="ok", text=VFSTAB), Paste(name="notes.txt", text="hello\n")]
    )
    with pytest.raises(Unrecognised) as caught:
        runner.run(inputs, PLATFORM)
    assert caught.value.index == 1
    assert "notes.txt" in str(caught.value)


def test_a_platform_the_catalog_does_not_know_is_a_catalog_error_and_the_pool_goes_on(
    runner: AuditRunner,
) -> None:
    # A CatalogError once could not be rebuilt on the server's side: it stopped the pool's
    # message thread, and every later audit waited for a worker in vain (503).
    unknown = PLATFORM.model_copy(
        update={"host": PLATFORM.host.model_copy(update={"os_version": "0"})}
    )
    for _ in range(2):
        with pytest.raises(CatalogError) as caught:
            runner.run(AuditInputs(files={"vfstab": VFSTAB}), unknown)
        assert caught.value.problems
    assert runner.run(AuditInputs(files={"vfstab": VFSTAB}), PLATFORM).checked == {"vfstab": 1}


def test_a_run_past_the_time_limit_is_stopped_and_the_pool_goes_on(
    runner: AuditRunner,
) -> None:
    started = time.monotonic()
    with pytest.raises(AuditFailed) as caught:
        runner.run(SleepingInputs(files={"vfstab": VFSTAB}), PLATFORM)
    assert caught.value.status == 422
    assert "longer than 3 s" in caught.value.message
    assert time.monotonic() - started < 30  # stopped at the limit, not after the 60 s sleep
    assert runner.run(AuditInputs(files={"vfstab": VFSTAB}), PLATFORM).checked == {"vfstab": 1}


def test_a_run_past_the_memory_limit_fails_alone(runner: AuditRunner) -> None:
    with pytest.raises(AuditFailed) as caught:
        runner.run(GreedyInputs(files={"vfstab": VFSTAB}), PLATFORM)
    assert caught.value.status == 413
    assert runner.run(AuditInputs(files={"vfstab": VFSTAB}), PLATFORM).checked == {"vfstab": 1}


def test_an_audit_that_waits_too_long_for_a_worker_is_told_to_retry(kb: KnowledgeBase) -> None:
    runner = AuditRunner(kb, Limits(workers=1, timeout_s=4.0))
    try:
        runner.run(AuditInputs(files={"vfstab": VFSTAB}), PLATFORM)  # the worker is up
        stopped: list[AuditFailed] = []

        def block() -> None:
            try:
                runner.run(SleepingInputs(files={"vfstab": VFSTAB}), PLATFORM)
            except AuditFailed as failure:
                stopped.append(failure)

        # The blocking audit keeps the default wait for a worker: on a loaded machine (the
        # lab's guests share the cores while the suite runs) its hand-over to the worker can
        # take longer than the short wait the next audit is given.
        blocker = threading.Thread(target=block)
        blocker.start()
        time.sleep(0.5)
        runner.limits = replace(runner.limits, queue_wait_s=0.2)
        with pytest.raises(AuditFailed) as caught:
            runner.run(AuditInputs(files={"vfstab": VFSTAB}), PLATFORM)
        assert caught.value.status == 503
        assert caught.value.retry_after is not None
        blocker.join()
        assert [failure.status for failure in stopped] == [422]
    finally:
        runner.close()
