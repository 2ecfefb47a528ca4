"""The parts of scripts/bench.py, the performance benchmark (its docstring documents the rows).

common: paths, constants and the progress log; server: a nasplan server and HTTP requests;
wrk: wrk runs and their Lua scripts; report: the table printed at the end; core: the state the
rows share; rows_server, rows_designs (with databases), rows_kb, rows_restart, baseline: the rows.
"""
