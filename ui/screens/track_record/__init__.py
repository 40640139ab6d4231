"""The track record screen: matured calls against the benchmark, hit rate by action, calibration, cost per report."""
