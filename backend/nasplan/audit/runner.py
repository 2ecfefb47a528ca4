"""Run audits in worker processes, each within a time and a memory limit.

A paste is the one input whose size and shape a client fully controls. The parsers are linear,
but an audit of a large paste still costs CPU and memory, and Python code holds the server's
interpreter lock while it runs. In a worker process (``pebble`` pool) it cannot: the server
keeps answering; a run past the time limit is stopped (the worker is killed and replaced); a
run past the memory limit fails in the worker alone; and what a large paste took returns to
the system when its worker is recycled, after ``max_tasks`` audits.

The pool starts with the first audit (a server that never audits runs no workers). Workers
are forked from a fork server started clean, with nasplan's modules imported once, and get
the knowledge base when they start.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import gc
import multiprocessing
import resource
import threading
import time
from concurrent.futures import CancelledError, Future
from dataclasses import dataclass

from pebble import ProcessExpired, ProcessPool

from nasplan.audit.pastes import Unrecognised
from nasplan.audit.report import AuditReport
from nasplan.audit.request import AuditInputs
from nasplan.domain.platform import Platform
from nasplan.knowledge.base import KnowledgeBase
from nasplan.knowledge.resolve import CatalogError


class AuditFailed(Exception):
    """An audit that could not be completed: ``status`` is the HTTP answer it calls for."""

    def __init__(self, status: int, message: str, retry_after: int | None = None) -> None:
        super().__init__(message)
        self.status = status
        self.message = message
        self.retry_after = retry_after


@dataclass(frozen=True)
class Limits:
    workers: int = 2
    timeout_s: float = 10.0
    memory_bytes: int = 1536 * 1024 * 1024
    max_tasks: int = 25
    queue_wait_s: float = 30.0


_kb: KnowledgeBase | None = None


def _start_worker(kb: KnowledgeBase, memory_bytes: int) -> None:
    global _kb
    _kb = kb
    if memory_bytes > 0:
        resource.setrlimit(resource.RLIMIT_AS, (memory_bytes, memory_bytes))


@dataclass(frozen=True)
class _Outcome:
    """What a worker sends back. Exceptions do not cross the process boundary: one whose
    constructor takes other arguments than its message cannot be rebuilt on this side (and
    would stop the pool's message thread), so what the caller must tell apart is data."""

    report: AuditReport | None = None
    unrecognised: int | None = None  # index of the paste nothing recognises
    catalog_problems: list[tuple[tuple[str, ...], str]] | None = None
    out_of_memory: bool = False
    failure: str | None = None  # anything else, for the log


def _return_free_memory() -> None:
    """Hand the heap's free pages back to the system (glibc keeps them otherwise, so a worker
    would hold what its largest paste took until it is recycled)."""
    gc.collect()
    if _libc is not None:
        _libc.malloc_trim(0)


def _find_libc() -> ctypes.CDLL | None:
    name = ctypes.util.find_library("c")
    try:
        libc = ctypes.CDLL(name) if name else None
    except OSError:
        return None
    return libc if libc is not None and hasattr(libc, "malloc_trim") else None


_libc = _find_libc()


def _audit_in_worker(inputs: AuditInputs, platform: Platform) -> _Outcome:
    assert _kb is not None, "worker started without a knowledge base"
    try:
        return _audit_outcome(_kb, inputs, platform)
    finally:
        _return_free_memory()


def _audit_outcome(kb: KnowledgeBase, inputs: AuditInputs, platform: Platform) -> _Outcome:
    try:
        return _Outcome(report=inputs.run(kb, platform))
    except Unrecognised as exc:
        return _Outcome(unrecognised=exc.index)
    except CatalogError as exc:
        return _Outcome(catalog_problems=exc.problems)
    except MemoryError:
        return _Outcome(out_of_memory=True)
    except Exception as exc:
        return _Outcome(failure=f"{type(exc).__name__}: {exc}")


def _started_within(future: Future[_Outcome], seconds: float) -> bool:
    deadline = time.monotonic() + seconds
    while not (future.running() or future.done()):
        if time.monotonic() >= deadline:
            return False
        time.sleep(0.02)
    return True


class AuditRunner:
    def __init__(self, kb: KnowledgeBase, limits: Limits | None = None) -> None:
        self.kb = kb
        self.limits = limits or Limits()
        self._pool: ProcessPool | None = None
        self._lock = threading.Lock()

    def _get_pool(self) -> ProcessPool:
        with self._lock:
            if self._pool is not None and not self._pool.active:
                self._pool = None  # stopped or broken: start a new one
            if self._pool is None:
                context = multiprocessing.get_context("forkserver")
                context.set_forkserver_preload([__name__])
                self._pool = ProcessPool(
                    max_workers=self.limits.workers,
                    max_tasks=self.limits.max_tasks,
                    initializer=_start_worker,
                    initargs=[self.kb, self.limits.memory_bytes],
                    context=context,
                )
            return self._pool

    def run(self, inputs: AuditInputs, platform: Platform) -> AuditReport:
        """The audit's report. Raises Unrecognised for a paste nothing recognises, AuditFailed
        when the audit ran too long or out of memory, or waited too long for a worker."""
        limits = self.limits
        future: Future[_Outcome] = self._get_pool().schedule(
            _audit_in_worker, args=[inputs, platform], timeout=limits.timeout_s
        )
        if not _started_within(future, limits.queue_wait_s):
            future.cancel()
            raise AuditFailed(503, "every audit worker is busy; try again shortly", retry_after=5)
        try:
            # The pool stops the run at the time limit; the margin only guards this thread.
            outcome = future.result(timeout=limits.timeout_s + 30)
        except TimeoutError as exc:
            raise AuditFailed(
                422,
                f"checking these pastes took longer than {limits.timeout_s:g} s: send fewer or "
                "smaller files (only the NFS lines and the settings in question)",
            ) from exc
        except (ProcessExpired, CancelledError) as exc:
            raise AuditFailed(
                422, "the audit of these pastes stopped before it finished: send smaller files"
            ) from exc
        return _report_of(outcome, inputs)

    def close(self) -> None:
        with self._lock:
            pool, self._pool = self._pool, None
        if pool is not None:
            pool.stop()  # type: ignore[no-untyped-call]
            pool.join(timeout=5)


def _report_of(outcome: _Outcome, inputs: AuditInputs) -> AuditReport:
    if outcome.report is not None:
        return outcome.report
    if outcome.unrecognised is not None:
        raise Unrecognised(outcome.unrecognised, inputs.pastes[outcome.unrecognised].name)
    if outcome.catalog_problems is not None:
        raise CatalogError(outcome.catalog_problems)
    if outcome.out_of_memory:
        raise AuditFailed(
            413,
            "checking these pastes needs more memory than an audit may use: send fewer or "
            "smaller files",
        )
    raise RuntimeError(f"the audit worker failed: {outcome.failure}")
