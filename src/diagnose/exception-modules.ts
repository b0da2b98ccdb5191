// The modules whose classes are exceptions whatever their names end in (`torch._dynamo.exc.Unsupported`,
// `….exceptions.X`, `….errors.X`): an exception's line names a class of one of them, or one named …Error or
// …Exception. Shared by the failure rule, the tracker's error lines and the literals those lines hold.
export const EXCEPTION_MODULES: readonly string[] = ['exc', 'exceptions', 'errors'];

/** Regexp source: the place right after `<module>.` of one of EXCEPTION_MODULES. */
export const AFTER_EXCEPTION_MODULE = String.raw`(?<=\b(?:${EXCEPTION_MODULES.join('|')})\.)`;

/**
 * Regexp source: the start of an exception class's name named …Error or …Exception. After a module path the name may
 * begin in lower case or with an underscore, as compiled bindings' and private classes do
 * (`nixl_cu13._bindings.nixlBackendError`, `grpc._channel._InactiveRpcError`).
 */
export const EXCEPTION_NAME_HEAD = String.raw`(?:[A-Z]|(?<=\.)\w)`;

/** Regexp source: an exception class's name, Python's bare `Exception` included (SGLang raises it with a message). */
export const EXCEPTION_CLASS = String.raw`(?:${EXCEPTION_NAME_HEAD}\w*(?:Error|Exception)|Exception)`;
