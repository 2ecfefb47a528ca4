"""Clean text: the characters a text field of a plan, a design or an audit may hold.

A plan is read back from the database and from imported documents, and every renderer writes
its fields into shell, SQL, YAML and templates, so no control or invisible format character gets
through. Each rule is a JSON Schema pattern (published in the OpenAPI document) and a validator
whose message names the character refused.
"""

from __future__ import annotations

import re
import unicodedata
from typing import Annotated

from pydantic import (
    StringConstraints,
    ValidationError,
    ValidatorFunctionWrapHandler,
    WrapValidator,
)
from pydantic_core import PydanticCustomError

CodeRanges = tuple[tuple[int, int], ...]

# Text fields take no character of the Unicode categories Cc (controls, C0 and C1) or Cf (format:
# invisible characters such as bidi overrides U+202E, zero-width spaces, the soft hyphen, tags).
# The ranges are spelled out rather than written \p{Cc}\p{Cf}: Python's re, which reads the
# OpenAPI patterns in schemathesis, has no property classes, and each engine would read them
# with its own Unicode version. tests/security/test_model_text.py checks them against Python's
# unicodedata and JavaScript's \p{Cf}. Cf as of Unicode 17.0 (U+13439-U+1343F since 15.0).
_DELETE_AND_C1: CodeRanges = ((0x007F, 0x009F),)
CONTROL_RANGES: CodeRanges = ((0x0000, 0x001F), *_DELETE_AND_C1)
FORMAT_RANGES: CodeRanges = (
    (0x00AD, 0x00AD),
    (0x0600, 0x0605),
    (0x061C, 0x061C),
    (0x06DD, 0x06DD),
    (0x070F, 0x070F),
    (0x0890, 0x0891),
    (0x08E2, 0x08E2),
    (0x180E, 0x180E),
    (0x200B, 0x200F),
    (0x202A, 0x202E),
    (0x2060, 0x2064),
    (0x2066, 0x206F),
    (0xFEFF, 0xFEFF),
    (0xFFF9, 0xFFFB),
    (0x110BD, 0x110BD),
    (0x110CD, 0x110CD),
    (0x13430, 0x1343F),
    (0x1BCA0, 0x1BCA3),
    (0x1D173, 0x1D17A),
    (0xE0001, 0xE0001),
    (0xE0020, 0xE007F),
)
LINE_SEPARATORS: CodeRanges = ((0x2028, 0x2029),)  # Zl and Zp: line breaks, not controls
# The controls less tab, newline and carriage return, which a multi-line text keeps.
MULTI_LINE_CONTROLS: CodeRanges = (
    (0x0000, 0x0008),
    (0x000B, 0x000C),
    (0x000E, 0x001F),
    *_DELETE_AND_C1,
)
# The Unicode white space (str.isspace) that is neither a control nor a line separator: what a
# name may start or end with, and loses.
SPACE_RANGES: CodeRanges = (
    (0x0020, 0x0020),
    (0x00A0, 0x00A0),
    (0x1680, 0x1680),
    (0x2000, 0x200A),
    (0x202F, 0x202F),
    (0x205F, 0x205F),
    (0x3000, 0x3000),
)


def _char(code: int) -> str:
    # Above U+FFFF no escape reads alike in Rust's regex (pydantic), Python's re and JavaScript:
    # \U000E0001 is not JavaScript, \u{E0001} is not Python (and JavaScript reads it only with
    # the u flag), and \uE0001 is U+E000 followed by "1" everywhere. Those characters stand in
    # the pattern as themselves, which every engine reads as one character (JavaScript with the
    # u or v flag, as JSON Schema asks; without it the pattern fails to compile).
    return f"\\u{code:04X}" if code <= 0xFFFF else chr(code)


def char_class(*groups: CodeRanges) -> str:
    """The members of a regex character class for these code point ranges."""
    return "".join(
        _char(low) if low == high else f"{_char(low)}-{_char(high)}"
        for ranges in groups
        for low, high in ranges
    )


SPACES = "".join(chr(c) for low, high in SPACE_RANGES for c in range(low, high + 1))


def strip_spaces(value: str) -> str:
    return value.strip(SPACES)


_ONE_LINE_BANNED = char_class(CONTROL_RANGES, FORMAT_RANGES, LINE_SEPARATORS)
_MULTI_LINE_BANNED = char_class(MULTI_LINE_CONTROLS, FORMAT_RANGES)
# One line of text: no control or format characters, no Unicode line or paragraph separators.
ONE_LINE_PATTERN = f"^[^{_ONE_LINE_BANNED}]*$"
# The same with at least one character that is not a space: a name.
NON_BLANK_LINE_PATTERN = (
    f"^[^{_ONE_LINE_BANNED}]*[^{_ONE_LINE_BANNED}{char_class(SPACE_RANGES)}][^{_ONE_LINE_BANNED}]*$"
)
# One token of a line, as a mount point in a pasted file is: no space, control or format
# character.
_ONE_TOKEN_BANNED = _ONE_LINE_BANNED + char_class(SPACE_RANGES)
ONE_TOKEN_PATTERN = f"^[^{_ONE_TOKEN_BANNED}]+$"
# Free text of several lines (a comment): tab, newline and carriage return are its only controls.
MULTI_LINE_PATTERN = f"^[^{_MULTI_LINE_BANNED}]*$"
# A file or a command's output, like a pasted audit file: no controls but tab, newline and
# carriage return; format characters (a byte order mark) may be part of the file.
FILE_TEXT_PATTERN = f"^[^{char_class(MULTI_LINE_CONTROLS)}]*$"


def _explained(banned: str, rule: str) -> WrapValidator:
    """Put after a pattern of the above in ``Annotated``: pydantic's own message for it quotes
    the pattern (hundreds of characters, some invisible); this one names the character."""
    finder = re.compile(f"[{banned}]")

    def validate(value: object, handler: ValidatorFunctionWrapHandler) -> object:
        try:
            return handler(value)
        except ValidationError as exc:
            if not isinstance(value, str) or exc.errors()[0]["type"] != "string_pattern_mismatch":
                raise
            found = finder.search(value)
            if found is None:
                raise PydanticCustomError(
                    "string_blank", "needs a character other than spaces"
                ) from None
            char = found.group()
            kind = {
                "Cc": "control character",
                "Zl": "line break",
                "Zp": "line break",
                "Zs": "space",
            }
            raise PydanticCustomError(
                "string_character",
                "{kind} {code} at position {position}: {rule}",
                {
                    "kind": kind.get(unicodedata.category(char), "format character"),
                    "code": f"U+{ord(char):04X}",
                    "position": found.start(),
                    "rule": rule,
                },
            ) from None

    return WrapValidator(validate)


ONE_LINE_ERRORS = _explained(
    _ONE_LINE_BANNED, "one line of text, without control or format characters"
)
MULTI_LINE_ERRORS = _explained(
    _MULTI_LINE_BANNED,
    "no format characters, and no control characters but tab, newline and carriage return",
)
ONE_TOKEN_ERRORS = _explained(
    _ONE_TOKEN_BANNED,
    "one token as the file gives it, without spaces, control or format characters",
)
FILE_TEXT_ERRORS = _explained(
    char_class(MULTI_LINE_CONTROLS), "no control characters but tab, newline and carriage return"
)
OneLine = Annotated[
    str, StringConstraints(pattern=ONE_LINE_PATTERN, max_length=2000), ONE_LINE_ERRORS
]
_ONE_LINE_FINDER = re.compile(f"[{_ONE_LINE_BANNED}]")


def as_one_line(text: str, max_length: int = 2000) -> str:
    """``text`` made a valid ``OneLine``: each character the rule refuses written as ``<U+XXXX>``
    (so what a pasted file held stays visible), cut to ``max_length`` with an ellipsis."""
    shown = _ONE_LINE_FINDER.sub(lambda found: f"<U+{ord(found.group()):04X}>", text)
    return shown if len(shown) <= max_length else shown[: max_length - 1] + "…"
