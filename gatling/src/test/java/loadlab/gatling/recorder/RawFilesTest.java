package loadlab.gatling.recorder;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import loadlab.gatling.config.Schedule;
import org.HdrHistogram.EncodableHistogram;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.HistogramLogReader;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import com.fasterxml.jackson.databind.ObjectMapper;

class RawFilesTest {

    private static final long T0 = 1_763_730_000L;

    @TempDir
    Path dir;

    private static SecondRecorder.SecondStats second(long second, long sent, long[] okValues, long[] koValues,
            long inflight) {
        Histogram ok = SecondRecorder.newHistogram();
        Histogram ko = SecondRecorder.newHistogram();
        for (long v : okValues) {
            ok.recordValue(v);
        }
        for (long v : koValues) {
            ko.recordValue(v);
        }
        long[] byKind = new long[ErrorKind.values().length];
        byKind[ErrorKind.STATUS_502.ordinal()] = koValues.length;
        return new SecondRecorder.SecondStats(second, sent, okValues.length, koValues.length, inflight, ok, ko, byKind);
    }

    @Test
    void hlogHasAbsoluteTimestampsTagsAndReadsBack() throws Exception {
        try (RawFiles f = new RawFiles(dir, "loadlab injector 0 of 1", T0 * 1000)) {
            f.writeSecond(second(T0, 3, new long[] {201, 202, 250}, new long[] {}, 1),
                    new Schedule.SecondPlan("warmup", -1, 3));
            f.writeSecond(second(T0 + 1, 0, new long[] {}, new long[] {}, 1), new Schedule.SecondPlan("measure", 0, 2));
            f.writeSecond(second(T0 + 2, 2, new long[] {205}, new long[] {10_000}, 1),
                    new Schedule.SecondPlan("measure", 0, 2.5));
        }
        String text = Files.readString(dir.resolve(RawFiles.HLOG));
        assertTrue(text.contains("#loadlab injector 0 of 1"), text);
        assertTrue(text.contains("#[BaseTime: 0.000"), text);
        assertTrue(text.contains("\"StartTimestamp\",\"Interval_Length\""), text);
        assertTrue(text.contains("Tag=ok," + T0 + ".000,1.000,250.000,"), text);

        List<Histogram> read = new ArrayList<>();
        HistogramLogReader reader = new HistogramLogReader(dir.resolve(RawFiles.HLOG).toFile());
        EncodableHistogram h;
        while ((h = reader.nextIntervalHistogram()) != null) {
            read.add((Histogram) h);
        }
        // Second T0+1 had no completions: no interval line for it.
        assertEquals(3, read.size());
        assertEquals(List.of("ok", "ok", "ko"), read.stream().map(Histogram::getTag).toList());
        assertEquals(List.of(T0 * 1000, (T0 + 2) * 1000, (T0 + 2) * 1000),
                read.stream().map(Histogram::getStartTimeStamp).toList());
        assertEquals(3, read.get(0).getTotalCount());
        assertEquals(202, read.get(0).getValueAtPercentile(50));
        assertEquals(10_000, read.get(2).getMaxValue(), 10);
    }

    @Test
    void secondsCsvHasOneRowPerSecond() throws Exception {
        try (RawFiles f = new RawFiles(dir, "c", T0 * 1000)) {
            f.writeSecond(second(T0, 20, new long[] {50}, new long[] {}, 19),
                    new Schedule.SecondPlan("warmup", -1, 20));
            f.writeSecond(second(T0 + 1, 33, new long[] {50, 51}, new long[] {60}, 49),
                    new Schedule.SecondPlan("measure", 0, 100.0 / 3));
        }
        assertEquals(List.of(RawFiles.CSV_HEADER, T0 + ",warmup,-1,20,20,1,0,19",
                (T0 + 1) + ",measure,0,33.333,33,2,1,49"),
                Files.readAllLines(dir.resolve(RawFiles.SECONDS)));
    }

    @Test
    void errorsCsvCountsFailuresByKindPerSecond() throws Exception {
        try (RawFiles f = new RawFiles(dir, "c", T0 * 1000)) {
            f.writeSecond(second(T0, 3, new long[] {50}, new long[] {}, 2), new Schedule.SecondPlan("measure", 0, 3));
            f.writeSecond(second(T0 + 1, 3, new long[] {}, new long[] {60, 61}, 1),
                    new Schedule.SecondPlan("measure", 0, 3));
        }
        assertEquals(List.of(RawFiles.ERRORS_HEADER, (T0 + 1) + ",status_502,2"),
                Files.readAllLines(dir.resolve(RawFiles.ERRORS)));
    }

    @Test
    void metaIsPlainJson() throws Exception {
        try (RawFiles f = new RawFiles(dir, "c", T0 * 1000)) {
            Map<String, Object> meta = new java.util.LinkedHashMap<>();
            meta.put("stopped_early", false);
            meta.put("stop_reason", null);
            f.writeMeta(meta);
        }
        Map<?, ?> back = new ObjectMapper().readValue(dir.resolve(RawFiles.META).toFile(), Map.class);
        assertEquals(false, back.get("stopped_early"));
        assertNull(back.get("stop_reason"));
    }

    @Test
    void ratesPrintWithoutNoise() {
        assertEquals("250", RawFiles.rate(250));
        assertEquals("33.333", RawFiles.rate(100.0 / 3));
        assertEquals("0.5", RawFiles.rate(0.5));
        assertEquals("0", RawFiles.rate(0));
    }
}
