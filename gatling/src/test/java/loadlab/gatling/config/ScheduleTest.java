package loadlab.gatling.config;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

class ScheduleTest {

    private static Schedule of(String... kv) {
        Map<String, String> m = new java.util.HashMap<>();
        for (int i = 0; i < kv.length; i += 2) {
            m.put(kv[i], kv[i + 1]);
        }
        return Schedule.of(HarnessThresholds.parse(m));
    }

    private static List<Double> targets(Schedule s) {
        return s.levels().stream().map(Schedule.Level::targetRps).toList();
    }

    @Test
    void stairsAreEvenlySpacedIncludingBothEnds() {
        Schedule s = of("startRps", "100", "peakRps", "1200", "steps", "12", "stepSeconds", "10", "warmupSeconds", "0");
        assertEquals(12, s.levels().size());
        assertEquals(100.0, targets(s).get(0), 1e-9);
        assertEquals(1200.0, targets(s).get(11), 1e-9);
        assertEquals(100.0, s.stairsIncrement(), 1e-9);
        assertEquals(List.of(0, 10, 20), s.levels().subList(0, 3).stream().map(Schedule.Level::startSecond).toList());
    }

    @Test
    void oneStepIsOneLevelAtTheStartRate() {
        Schedule s = of("startRps", "40", "peakRps", "90", "steps", "1", "stepSeconds", "5");
        assertEquals(List.of(40.0), targets(s));
        assertEquals(0.0, s.stairsIncrement());
    }

    @Test
    void ratesAreSplitAcrossInjectors() {
        Schedule s = of("startRps", "20", "peakRps", "60", "steps", "3", "stepSeconds", "3", "warmupSeconds", "2",
                "warmupRps", "20", "injectors", "2", "injectorIndex", "1");
        assertEquals(List.of(10.0, 20.0, 30.0), targets(s));
        assertEquals(10.0, s.warmupRps());
        assertEquals(10.0, s.stairsIncrement());
    }

    @Test
    void everySecondKnowsItsPhaseLevelAndRate() {
        Schedule s = of("startRps", "20", "peakRps", "60", "steps", "3", "stepSeconds", "3", "warmupSeconds", "2",
                "warmupRps", "15");
        // 2 s of warm-up: 1 s climbing (its midpoint: 1.5 + 13.5 x 0.5), 1 s at the rate
        assertEquals(new Schedule.SecondPlan("warmup", -1, 8.25), s.at(0));
        assertEquals(new Schedule.SecondPlan("warmup", -1, 15), s.at(1));
        assertEquals(new Schedule.SecondPlan("measure", 0, 20), s.at(2));
        assertEquals(new Schedule.SecondPlan("measure", 0, 20), s.at(4));
        assertEquals(new Schedule.SecondPlan("measure", 1, 40), s.at(5));
        assertEquals(new Schedule.SecondPlan("measure", 2, 60), s.at(10));
        // Requests still completing after the last level.
        assertEquals(new Schedule.SecondPlan("measure", -1, 0), s.at(11));
        assertEquals(11, s.totalSeconds());
        assertEquals(List.of(2, 5, 8), s.levels().stream().map(Schedule.Level::startSecond).toList());
    }

    @Test
    void theWarmUpClimbsFromATenthOfItsRateOverItsFirstHalf() {
        // Cold JVMs offered 300 rps from the first second built a backlog the whole warm-up could not clear.
        Schedule s = of("startRps", "300", "peakRps", "600", "steps", "2", "stepSeconds", "10", "warmupSeconds", "30",
                "warmupRps", "300");
        assertEquals(15, s.warmupRampSeconds());
        assertEquals(39.0, s.at(0).targetRps(), 1e-9); // 30 + 270 x 0.5 / 15
        assertEquals(291.0, s.at(14).targetRps(), 1e-9); // 30 + 270 x 14.5 / 15
        assertEquals(new Schedule.SecondPlan("warmup", -1, 300), s.at(15));
        assertEquals(new Schedule.SecondPlan("warmup", -1, 300), s.at(29));
        assertEquals(new Schedule.SecondPlan("measure", 0, 300), s.at(30));
        assertEquals(50, s.totalSeconds());
    }

    @Test
    void rampWindowsTargetTheirMeanRate() {
        // 100 -> 400 rps over 3 windows of 10 s: the rate crosses 150, 250, 350 in the windows' middles.
        Schedule s = of("profile", "ramp", "startRps", "100", "peakRps", "400", "steps", "3", "stepSeconds", "10",
                "warmupSeconds", "0");
        assertEquals(List.of(150.0, 250.0, 350.0), targets(s));
        // Each second carries the rate at its midpoint, as Gatling's ramp injects it.
        assertEquals(105.0, s.at(0).targetRps(), 1e-9);
        assertEquals(395.0, s.at(29).targetRps(), 1e-9);
        for (Schedule.Level level : s.levels()) {
            double sum = 0;
            for (int sec = level.startSecond(); sec < level.endSecond(); sec++) {
                assertEquals(level.index(), s.at(sec).level());
                sum += s.at(sec).targetRps();
            }
            assertEquals(level.targetRps() * level.seconds(), sum, 1e-6);
        }
    }

    @Test
    void rampIsSplitAcrossInjectorsToo() {
        Schedule s = of("profile", "ramp", "startRps", "100", "peakRps", "400", "steps", "3", "stepSeconds", "10",
                "injectors", "4", "injectorIndex", "3");
        assertEquals(List.of(37.5, 62.5, 87.5), targets(s));
    }
}
