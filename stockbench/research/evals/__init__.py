"""The eval harness: golden research cases in five categories, invariants that must hold on every case, and
results stored per handbook version and model so that regressions show (`stockbench eval`)."""
