"""The eval harness: golden research cases in six categories (a cheating model among them), invariants that must
hold on every case, and results stored per handbook version and model so that regressions show (`stockbench eval`)."""
