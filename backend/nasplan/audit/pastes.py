"""Pasted texts to audit: each with a kind, or recognised from its content, several texts of
one kind read as one file. The API and the CLI both gather their pastes here."""

from __future__ import annotations

from dataclasses import dataclass
from typing import cast

from nasplan.audit.detect import detect_kind
from nasplan.audit.kinds import FileKind, spec_of
from nasplan.audit.report import RecognisedPaste


@dataclass(frozen=True)
class PasteIn:
    name: str
    kind: str  # a FileKind, or "auto"
    text: str


class Unrecognised(ValueError):
    """A paste sent as `auto` whose content says nothing of what it is."""

    def __init__(self, index: int, name: str) -> None:
        super().__init__(f"cannot tell what {name} is: choose its kind")
        self.index = index


def gather(
    pastes: list[PasteIn], files: dict[FileKind, str] | None = None
) -> tuple[dict[FileKind, str], list[RecognisedPaste]]:
    """The files by kind (joined to ``files``), and what each `auto` paste was taken for."""
    gathered: dict[FileKind, str] = dict(files or {})
    recognised: list[RecognisedPaste] = []
    for index, paste in enumerate(pastes):
        kind_text = paste.kind
        if kind_text == "auto":
            detected = detect_kind(paste.text)
            if detected is None or spec_of(detected.kind) is None:
                raise Unrecognised(index, paste.name)
            kind_text = detected.kind
            recognised.append(
                RecognisedPaste(
                    name=paste.name,
                    kind=kind_text,
                    confidence=detected.confidence,
                    reason=detected.reason,
                )
            )
        kind = cast(FileKind, kind_text)
        gathered[kind] = f"{gathered[kind]}\n{paste.text}" if kind in gathered else paste.text
    return gathered, recognised
