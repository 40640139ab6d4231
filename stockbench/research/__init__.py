"""Research runs: the handbook's method carried out as a journaled conversation with a model.

A run moves through the handbook's stages (`stages.py`), holding its typed state (`state.py`) and the
program's facts blocks (`blocks.py`); every model turn goes through the one conversation loop (`loop.py`),
every tool through the tool table (`tools.py`), every judgment through the checks (`validate.py`). The run
store (`journal.py`) alone writes `runs`, `run_events` and `run_status`; the report archive (`archive.py`)
alone writes `reports`. Front ends reach research through `stockbench.workbench`.
"""
