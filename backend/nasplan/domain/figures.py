"""Figures in words: a modelled figure rounded to what the model can claim."""

from __future__ import annotations


def rate_words(mb_s: float) -> str:
    """A modelled throughput rounded to what the model can claim: two significant figures in
    GB/s from 1,000 MB/s (6002.1 -> "6.0 GB/s"), whole MB/s below ("463 MB/s"). The model is
    calibrated to about 10%, so a decimal of a MB/s would be false precision."""
    if mb_s >= 1000:
        return f"{mb_s / 1000:.1f} GB/s"
    return f"{mb_s:.0f} MB/s"
