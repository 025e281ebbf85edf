"""The REST API of the tournament service (``/api/v1/``): thin views on services and selectors.
``views`` and ``serializers`` are the bases every package's API shares; ``urls`` routes to each
package's own endpoints too."""
