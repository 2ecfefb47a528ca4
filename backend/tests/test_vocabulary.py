"""Every closed vocabulary that reaches a reader has its words, and only its own terms."""

from __future__ import annotations

from typing import get_args

from nasplan.domain.vocabulary import MECHANISM_WORDS, Mechanism


def test_every_mechanism_has_its_words_and_no_other_term_does() -> None:
    assert set(MECHANISM_WORDS) == set(get_args(Mechanism))
    for mechanism, words in MECHANISM_WORDS.items():
        assert words.strip() and "_" not in words, mechanism
