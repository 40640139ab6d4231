"""The research screen: start runs, follow their stage and sub-task titles, continue, stop, approve plans."""
