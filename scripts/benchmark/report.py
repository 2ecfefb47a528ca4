"""The report: one table row per target (measured, baseline, result, verdict), then notes."""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass
class Report:
    rows: list[tuple[str, str, str, str, str, str]] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    extra: list[str] = field(default_factory=list)

    def add(
        self,
        what: str,
        measured: str,
        baseline: str,
        result: str,
        target: str,
        ok: bool | None,
    ) -> None:
        verdict = "—" if ok is None else ("met" if ok else "MISSED")
        self.rows.append((what, measured, baseline, result, target, verdict))

    def missing(self, what: str, target: str, why: str) -> None:
        self.rows.append((what, "not measured", "—", why, target, "n/a"))

    def print(self, header: list[str]) -> None:
        for text in header:
            print(text)
        print()
        titles = (
            "what",
            "measured",
            "baseline (same run)",
            "result",
            "target",
            "verdict",
        )
        widths = [max(len(r[i]) for r in [titles, *self.rows]) for i in range(6)]

        def line(cells: tuple[str, ...]) -> str:
            return "| " + " | ".join(c.ljust(w) for c, w in zip(cells, widths, strict=True)) + " |"

        print(line(titles))
        print("|" + "|".join("-" * (w + 2) for w in widths) + "|")
        for row in self.rows:
            print(line(row))
        for block in self.extra:
            print()
            print(block)
        if self.notes:
            print()
            print("Notes:")
            for note in dict.fromkeys(self.notes):
                print(f"- {note}")


def fmt_run(result: dict[str, float], p99: bool = True) -> str:
    text = f"{result['rps']:.0f} rps"
    if p99:
        text += f", p99 {result['p99_ms']:.1f} ms"
    if result["non_2xx"]:
        text += f" ({int(result['non_2xx'])} NON-2xx!)"
    if result["socket_errors"]:
        text += " (socket errors!)"
    return text
