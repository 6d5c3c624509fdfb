// Preloaded into a fleet member (`node --import`): shifts this process's wall clock by SKEW_MS, as a
// badly synchronised host would. The shared log must not care, since it runs on Redis's clock.
const skew = Number(process.env.SKEW_MS ?? 0);
const realNow = Date.now;
Date.now = () => realNow() + skew;
