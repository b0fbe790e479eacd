package io.wecominbox.devstack.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.wecominbox.simulator.platform.EventType;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class EventMixTest {

    @Test
    void everyBlockOfAHundredHoldsExactlyTheShareOfAdds() {
        EventMix mix = new EventMix(0.2, 2, 42);
        for (int block = 0; block < 50; block++) {
            int adds = 0;
            for (int i = 0; i < EventMix.BLOCK; i++) {
                if (mix.type((long) block * EventMix.BLOCK + i) == EventType.ADD_EXTERNAL_CONTACT) {
                    adds++;
                }
            }
            assertEquals(20, adds, "block " + block);
        }
    }

    @Test
    void theRestAreMembersTextMessages() {
        EventMix mix = new EventMix(0.2, 2, 7);
        for (long i = 0; i < 1000; i++) {
            EventType type = mix.type(i);
            assertEquals(true, type == EventType.ADD_EXTERNAL_CONTACT || type == EventType.TEXT_MESSAGE, type.name());
        }
    }

    @Test
    void theSameSeedGivesTheSameSequenceAndAnotherSeedAnother() {
        assertEquals(sequence(new EventMix(0.2, 2, 1), 2000), sequence(new EventMix(0.2, 2, 1), 2000));
        assertNotEquals(sequence(new EventMix(0.2, 2, 1), 2000), sequence(new EventMix(0.2, 2, 2), 2000));
    }

    @Test
    void aStepThatStartsMidBlockStillSeesTheSameEventsAsReadingInOrder() {
        EventMix inOrder = new EventMix(0.2, 2, 5);
        List<EventType> expected = sequence(inOrder, 400);
        EventMix jumping = new EventMix(0.2, 2, 5);
        jumping.type(350); // the block cache moved away and back
        assertEquals(expected.subList(120, 180), sequence(jumping, 400).subList(120, 180));
    }

    @Test
    void appsTakeTurnsSoBothGetHalfOfEachKind() {
        EventMix mix = new EventMix(0.2, 2, 3);
        int[] adds = new int[2];
        int[] all = new int[2];
        for (long i = 0; i < 10_000; i++) {
            all[mix.app(i)]++;
            if (mix.type(i) == EventType.ADD_EXTERNAL_CONTACT) {
                adds[mix.app(i)]++;
            }
        }
        assertEquals(5000, all[0]);
        assertEquals(5000, all[1]);
        assertEquals(1000, adds[0], 60); // positions are random within a block: about half each
        assertEquals(2000, adds[0] + adds[1]);
    }

    @Test
    void sharesOfNothingAndEverythingAreExact() {
        assertEquals(0, sequence(new EventMix(0, 1, 1), 500).stream().filter(t -> t == EventType.ADD_EXTERNAL_CONTACT).count());
        assertEquals(500, sequence(new EventMix(1, 1, 1), 500).stream().filter(t -> t == EventType.ADD_EXTERNAL_CONTACT).count());
    }

    @Test
    void aShareOutsideZeroToOneIsRefused() {
        assertThrows(IllegalArgumentException.class, () -> new EventMix(1.5, 2, 1));
        assertThrows(IllegalArgumentException.class, () -> new EventMix(0.2, 0, 1));
    }

    private static List<EventType> sequence(EventMix mix, int n) {
        List<EventType> out = new ArrayList<>();
        for (long i = 0; i < n; i++) {
            out.add(mix.type(i));
        }
        return out;
    }
}
