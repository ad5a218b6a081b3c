"""Models of a workspace: the registry (the one writer of ``models``), the
GGUF files found on this computer, a GGUF file's checked header, the embedded model, the GPU
offload a model fits, and the settings a local model is loaded and scheduled with."""
