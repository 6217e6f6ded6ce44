"""Operations: health checks (`/healthz`, `agon health`) and Prometheus metrics (`/metrics`)."""
