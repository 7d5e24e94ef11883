"""Speed and memory benchmarks, each a script (`python bench/bench_e2e.py`, ...).

A package so that the benchmarks can share code (`bench.timing`: the percentile, the
report line and the timers all of them use; `bench.memory`; `bench.bench_service`'s games)
and type checkers map each file to one module name. The scripts are named `bench_*` so
that none shadows a package when run: a script's own folder comes first on `sys.path`.
"""
