-- DropTable
DROP TABLE "rate_limit_window";

-- CreateTable
CREATE TABLE "rate_limit_bucket" (
    "subject" TEXT NOT NULL,
    "level" DOUBLE PRECISION NOT NULL,
    "at" TIMESTAMPTZ(6) NOT NULL,
    "holder" UUID,

    CONSTRAINT "rate_limit_bucket_pkey" PRIMARY KEY ("subject")
);
