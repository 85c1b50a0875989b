"""A gap in a pass's server evidence: measured seconds without a sampler's rows (found by evidence.py)."""

from __future__ import annotations

from dataclasses import dataclass

from loadlab.summary.schema.detail_records import EvidenceGapRecord


@dataclass(frozen=True)
class Gap:
    role: str  # whose sampler: thread-service, delay-service, injector-<i>
    first_second: int  # measured seconds (0: the first second of the measured phase), inclusive
    last_second: int
    cause: str  # died | stalled | never started
    detail: str  # the sampler, how it ended, and what its rows would have said
    fine_pass: str | None = None  # the fine pass these seconds belong to (None: the coarse pass)

    @property
    def seconds(self) -> int:
        return self.last_second - self.first_second + 1

    def sentence(self) -> str:
        where = f"{self.fine_pass}'s " if self.fine_pass else ""
        return f"no server evidence for {where}measured seconds {self.first_second}–{self.last_second}: {self.detail}"

    def record(self) -> EvidenceGapRecord:
        return EvidenceGapRecord(
            role=self.role,
            pass_name=self.fine_pass or "coarse",
            first_second=self.first_second,
            last_second=self.last_second,
            seconds=self.seconds,
            cause=self.cause,
            detail=self.detail,
        )
