"""Long runs: work split into chunks on local processes or a Dask cluster, with progress, kept in a work
directory so an interrupted run goes on.

Uses ``engine`` and ``dictionaries``.
"""
