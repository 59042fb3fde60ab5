"""The derived-* family: numbers that follow from other numbers printed in the paper ("statcheck for tables").

One module per relation kind, each proved on intervals from printed precision; ``evidence`` says how a
relation's certainty becomes a severity.
"""

from pipeline.audit.checks.derived.confusion import check_confusion
from pipeline.audit.checks.derived.delta import check_deltas
from pipeline.audit.checks.derived.fscore import check_fscores
from pipeline.audit.checks.derived.partitions import check_partitions
from pipeline.audit.checks.derived.rates import check_rates
from pipeline.audit.checks.derived.ratio import check_ratios
from pipeline.audit.checks.derived.repeated import check_repeated
from pipeline.audit.checks.derived.shares import check_shares
from pipeline.audit.checks.derived.teststat import check_test_statistics

__all__ = [
    "check_confusion",
    "check_deltas",
    "check_fscores",
    "check_partitions",
    "check_rates",
    "check_ratios",
    "check_repeated",
    "check_shares",
    "check_test_statistics",
]
