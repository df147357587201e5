"""Feature families (one module each, registered in `features.families`) and the sentence/token
tables built from them."""
from .families import configure, register, unregister
from .family import FamilyContext, FeatureFamily, WorkTables
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
    "CATEGORICAL_FEATURES", "FEATURE_GROUPS", "NUMERIC_FEATURES", "FamilyContext", "FeatureConfig",
    "FeatureExtractor", "FeatureFamily", "FeatureTables", "WorkTables", "configure", "feature_columns",
    "register", "unregister",
]
