# A program that raises before torch does anything (torch imported, nothing compiled).
import torch  # noqa: F401

raise RuntimeError("config file missing: train.yaml")
