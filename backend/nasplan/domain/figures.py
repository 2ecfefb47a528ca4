"""Figures in words: a modelled figure rounded to what the model can claim."""

from __future__ import annotations


def rate_words(mb_s: float) -> str:
    """A modelled throughput rounded to what the model can claim: two significant figures in
    GB/s from 1,000 MB/s (6002.1 -> "6.0 GB/s"), whole MB/s below ("463 MB/s"). The model is
    calibrated to about 10%, so a decimal of a MB/s would be false precision."""
    if mb_s >= 1000:
        return f"{mb_s / 1000:.1f} GB/s"
    return f"{mb_s:.0f} MB/s"


def count_words(count: float) -> str:
    """A modelled count rounded to two significant figures (141,400 -> "140,000"), for the
    same reason as rates."""
    whole = round(count)
    if whole < 100:
        return f"{whole}"
    step = 10 ** (len(str(whole)) - 2)
    return f"{(whole + step // 2) // step * step:,}"


def random_reads_words(ceiling: float | None, per_read: float | None, to_fill: int | None) -> str:
    """The random-read figures of the expectations in one sentence."""
    if per_read is None:
        return ""
    each = (
        f"about {count_words(per_read)} a second per read in flight (the filer's own time on top)"
    )
    if ceiling is None or to_fill is None:
        return f"8 KB random reads: {each}; no source measured this client's ceiling."
    return (
        f"8 KB random reads: at most about {count_words(ceiling)} a second over the planned "
        f"paths; {each}, so it takes about {to_fill} reads in flight at once to reach that."
    )
