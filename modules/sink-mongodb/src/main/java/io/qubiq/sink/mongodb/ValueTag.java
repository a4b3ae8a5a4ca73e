package io.qubiq.sink.mongodb;

/** The one-byte type tags of {@link MongoDocumentCodec}'s value encoding (format version 1). */
final class ValueTag {

    static final int NULL = 0;
    static final int STRING = 1;
    static final int INT32 = 2;
    static final int INT64 = 3;
    static final int DOUBLE = 4;
    static final int TRUE = 5;
    static final int FALSE = 6;
    static final int DECIMAL = 7;
    static final int INSTANT = 8;
    static final int DOCUMENT = 9;
    static final int ARRAY = 10;

    private ValueTag() {
    }
}
