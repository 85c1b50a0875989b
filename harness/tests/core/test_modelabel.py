"""Mode labels (the contract's folder and summary.json names), built and read by ModeLabel alone."""

import pytest
from builders import run_params

from loadlab.core import runplan
from loadlab.core.asked import Asked
from loadlab.core.modelabel import ModeLabel
from loadlab.summary.reading.labels import base_mode, mode_jdk


@pytest.mark.parametrize(
    "label, parts",
    [
        ("platform", ModeLabel("platform")),
        ("virtual", ModeLabel("virtual")),
        ("virtual-jdk21", ModeLabel("virtual", jdk=21)),
        ("platform-t1000", ModeLabel("platform", threads=1000)),
        ("platform-t1000-jdk21", ModeLabel("platform", jdk=21, threads=1000)),
    ],
)
def test_every_label_of_the_contract_is_built_and_read_back(label, parts):
    assert str(parts) == label and ModeLabel.parse(label) == parts


def test_a_folder_named_otherwise_is_a_mode_of_its_name_with_nothing_else_known():
    assert ModeLabel.parse("platform-jdk") == ModeLabel("platform-jdk")
    assert ModeLabel.parse("Virtual-jdk21") == ModeLabel("Virtual-jdk21")


def test_the_runs_labels_come_from_it_and_the_summary_reads_them_with_it():
    labels = [r.label for r in runplan.mode_runs(["platform", "virtual"], [21, 25])]
    assert [ModeLabel.parse(label) for label in labels] == [
        ModeLabel(m, j) for j in (21, 25) for m in ("platform", "virtual")
    ]
    several = Asked.of(run_params(jdks=(21, 25))).jdk
    assert (base_mode("platform-t1000-jdk21"), mode_jdk("platform-t1000-jdk21", several)) == (
        "platform",
        21,
    )
    assert mode_jdk("platform-t1000", Asked.of(run_params(jdks=(25,))).jdk) == 25
