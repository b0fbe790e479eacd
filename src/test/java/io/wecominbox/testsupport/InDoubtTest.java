package io.wecominbox.testsupport;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class InDoubtTest {

    @Test
    void aGidReadsAsTheXidDataLibertyLogs() {
        // issue 23: PostgreSQL's log (ROLLBACK PREPARED at 06:29:33) and Liberty's FFDC for the same branch
        String gid = "1463898948_AAABojVxiKAAAAABVcTspIMxntxEG+hzX6pALXQAq1pSyU04_"
                + "AAABojVxiKAAAAABVcTspIMxntxEG+hzX6pALXQAq1pSyU04AAAAAQAAAAAAAAAAAAAAAAAC";
        String gtrid = "000001a2357188a00000000155c4eca483319edc441be8735faa402d7400ab5a52c94d38";
        assertEquals(gtrid + gtrid + "000000010000000000000000000000000002", InDoubt.libertyXidData(gid));
    }

    @Test
    void aGidOfAnotherTransactionManagerIsShownAsUnknown() {
        assertEquals("?", InDoubt.libertyXidData("not-a-pgjdbc-gid"));
        assertEquals("?", InDoubt.libertyXidData("1_%%_%%"));
    }
}
