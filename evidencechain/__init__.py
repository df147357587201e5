"""evidencechain: offline word-level hallucination detection and evidence attribution for RAG."""
__version__ = "0.1.0"
