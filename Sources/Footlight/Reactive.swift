// The one place Footlight chooses its reactive library: Apple's Combine where it
// exists, OpenCombine (the same API) elsewhere. Directors import Footlight and write
// `AnyPublisher`, `PassthroughSubject`, … and compile unchanged on either.
#if canImport(Combine)
    @_exported import Combine
#else
    @_exported import OpenCombine
    @_exported import OpenCombineDispatch
#endif
