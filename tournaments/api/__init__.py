"""The REST API of the tournament service (``/api/v1/``): thin views on services and selectors."""
