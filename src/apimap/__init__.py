"""apimap: a schema-validated knowledge base of PyTorch to PaddlePaddle API mappings."""

__version__ = "0.1.0"
