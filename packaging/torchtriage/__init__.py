"""torchtriage: why did torch.compile get slower or break?

This package only carries the `torchtriage` command, a static Go binary that pip installs next to python
(the environment's bin/ or Scripts/). `python -m torchtriage ARGS...` runs it too.
"""
