"""The load profiles' names, defined once (PROFILE's values; brownout_profile.PROFILE is the third): a module with no
imports, so the thresholds and the parameters' limits can both read them."""

STAIRS = "stairs"
RAMP = "ramp"
