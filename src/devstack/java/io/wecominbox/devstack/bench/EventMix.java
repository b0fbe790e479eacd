package io.wecominbox.devstack.bench;

import io.wecominbox.simulator.platform.EventType;
import java.util.Random;

/**
 * The realistic mix of the mix bench: which app and which kind each event is. In every block of 100 events
 * exactly {@code round(addShare × 100)} are adds with a WelcomeCode, at positions drawn from the seed, the rest
 * members' text messages; apps take turns. Exact per block, so a 20 s step at 100/s has its 20 % of adds and not
 * "about" them, and the same seed gives the same sequence (two runs, main against a change, see the same mix).
 */
final class EventMix {

    static final int BLOCK = 100;

    private final int addsPerBlock;
    private final int apps;
    private final long seed;
    private long cachedBlock = -1;
    private boolean[] cachedAdds;

    EventMix(double addShare, int apps, long seed) {
        if (addShare < 0 || addShare > 1) {
            throw new IllegalArgumentException("the add share must be within [0,1], was " + addShare);
        }
        if (apps < 1) {
            throw new IllegalArgumentException("the mix needs at least one app");
        }
        this.addsPerBlock = (int) Math.round(addShare * BLOCK);
        this.apps = apps;
        this.seed = seed;
    }

    /** The kind of event number {@code index} (0, 1, ... over the whole run). */
    synchronized EventType type(long index) {
        return addsOf(index / BLOCK)[(int) (index % BLOCK)] ? EventType.ADD_EXTERNAL_CONTACT : EventType.TEXT_MESSAGE;
    }

    /** Which app (0 .. apps - 1) event number {@code index} is for. */
    int app(long index) {
        return (int) (index % apps);
    }

    private boolean[] addsOf(long block) {
        if (block != cachedBlock) {
            // a partial Fisher-Yates shuffle per block, seeded by the run's seed and the block's number
            Random random = new Random(seed * 31 + block);
            int[] positions = new int[BLOCK];
            for (int i = 0; i < BLOCK; i++) {
                positions[i] = i;
            }
            boolean[] adds = new boolean[BLOCK];
            for (int i = 0; i < addsPerBlock; i++) {
                int j = i + random.nextInt(BLOCK - i);
                int swap = positions[i];
                positions[i] = positions[j];
                positions[j] = swap;
                adds[positions[i]] = true;
            }
            cachedAdds = adds;
            cachedBlock = block;
        }
        return cachedAdds;
    }
}
