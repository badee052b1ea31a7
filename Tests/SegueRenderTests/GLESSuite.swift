import Testing

/// Every test that makes a GLES context, the tests written once for every backend (`TestBackend`) among them.
/// They run one at a time: each renderer has its own GL thread, so running them in parallel would be safe, but
/// on llvmpipe they would only fight over the same cores (and the resource test measures the process's memory).
@Suite(.serialized) struct GLESSuite {}
