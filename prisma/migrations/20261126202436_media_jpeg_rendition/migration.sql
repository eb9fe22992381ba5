-- AlterTable
ALTER TABLE "media" ADD COLUMN     "has_jpeg_rendition" BOOLEAN NOT NULL DEFAULT false;
