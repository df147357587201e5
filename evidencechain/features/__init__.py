"""Feature families (one module each) and the sentence/token tables built from them."""
from .table import (
    CATEGORICAL_FEATURES,
    FEATURE_GROUPS,
    NUMERIC_FEATURES,
    FeatureConfig,
    FeatureExtractor,
    FeatureTables,
    feature_columns,
)

__all__ = [
    "CATEGORICAL_FEATURES", "FEATURE_GROUPS", "NUMERIC_FEATURES", "FeatureConfig",
    "FeatureExtractor", "FeatureTables", "feature_columns",
]
