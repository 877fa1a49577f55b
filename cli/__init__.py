"""The ``wordfeud-bot`` command line (also ``python -m cli``): the one place that may use every layer.
"""
