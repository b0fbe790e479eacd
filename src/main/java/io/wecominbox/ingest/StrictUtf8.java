package io.wecominbox.ingest;

import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;

/**
 * A callback body as text. WeCom sends UTF-8; bytes that are not UTF-8 are the client's mistake and get a 400.
 * {@code new String(bytes, UTF_8)} would instead replace them with U+FFFD and pass a different text on, one
 * that two different bodies can share.
 */
final class StrictUtf8 {

    private StrictUtf8() {
    }

    static String decode(byte[] bytes) throws CallbackRejected {
        try {
            return StandardCharsets.UTF_8.newDecoder()
                    .onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT)
                    .decode(ByteBuffer.wrap(bytes)).toString();
        } catch (CharacterCodingException e) {
            throw new CallbackRejected(Rejection.BAD_ENCODING, "body is not valid UTF-8");
        }
    }
}
