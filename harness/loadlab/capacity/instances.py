"""The dated EC2 table `make plan INSTANCE=…` reads (infra/instance-types.tsv): vCPUs, memory and on-demand list
prices, with the date they were compiled and where from. The prices are list prices to check, never a quote."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from loadlab.core.repo import REPO

TABLE = REPO / "infra" / "instance-types.tsv"
# The region the stack deploys to by default (infra/variables.tf) is the price column plans use.
REGION = "eu-west-1"


@dataclass(frozen=True)
class Instance:
    name: str
    vcpus: int
    memory_gib: float
    usd_hour: float  # on-demand list price in REGION


@dataclass(frozen=True)
class Table:
    instances: tuple[Instance, ...]
    as_of: str
    source: str
    public_ipv4_usd_hour: float

    def find(self, name: str) -> Instance | None:
        return next((i for i in self.instances if i.name == name), None)

    def names(self) -> list[str]:
        return [i.name for i in self.instances]

    def smallest(self, family: str, vcpus: float, memory_gib: float) -> Instance | None:
        """The cheapest type of a family (`c7i`) with at least these vCPUs and this memory; None when none has."""
        fits = [
            i
            for i in self.instances
            if i.name.split(".")[0] == family and i.vcpus >= vcpus and i.memory_gib >= memory_gib
        ]
        return min(fits, key=lambda i: i.usd_hour, default=None)

    def price_note(self) -> str:
        return (
            f"on-demand list prices in {REGION} as of {self.as_of} ({TABLE.relative_to(REPO)}): "
            "estimates to check on AWS's pricing page"
        )


def read(path: Path = TABLE) -> Table:
    header: dict[str, str] = {}
    rows: list[Instance] = []
    columns: list[str] = []
    for line in path.read_text().splitlines():
        if line.startswith("#"):
            key, sep, value = line[1:].partition(":")
            if sep and key.strip() in ("as_of", "source", "public_ipv4_usd_hour"):
                header[key.strip()] = value.strip()
            continue
        fields = line.split("\t")
        if not columns:
            columns = fields
            continue
        row = dict(zip(columns, fields))
        rows.append(
            Instance(
                row["type"],
                int(row["vcpus"]),
                float(row["memory_gib"]),
                float(row[f"usd_hour_{REGION.replace('-', '_')}"]),
            )
        )
    return Table(tuple(rows), header["as_of"], header.get("source", ""), float(header["public_ipv4_usd_hour"]))
